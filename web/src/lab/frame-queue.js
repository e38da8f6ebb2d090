// Redraw requests coalesced into one drawing per animation frame (the lab's and the embedded
// figures' scheduleRender): any number of calls before the frame draw once.
export function createFrameQueue(draw) {
  let queued = false;
  return function schedule() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; draw(); });
  };
}
