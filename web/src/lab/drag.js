// Dragging a token in the token plane (with the pointer, or focused and moved with the arrow keys:
// plots/tokenplane.js): while it moves, the moved data is drawn and its references re-solved (one
// solve at a time) with the player paused; when it is dropped, the run restarts on the new data.
import { dot } from './linalg.js';
import { roundDataset } from './state.js';

// createDrag({ session, player, renderPlane(), refreshReferences(selection, dataset) }) ->
//   { onDrag(i, t, xy, phase), resumeAfterDrag (the restarted run plays on), clearResume() }
export function createDrag({ session: s, player, renderPlane, refreshReferences }) {
  let resumeAfterDrag = false;   // a drag pauses the player; the restarted run plays on
  let dragSolveBusy = false;
  function onDrag(i, t, xy, phase) {
    if (!s.cfg || !s.projection) return;
    const base = s.dragData ?? structuredClone(s.cfg.dataset);
    const [e1, e2] = s.projection.axes;
    const x = base.X[i][t];
    const p1 = dot(x, e1), p2 = dot(x, e2);
    const moved = x.map((v, k) => v + (xy[0] - p1) * e1[k] + (xy[1] - p2) * e2[k]);
    if (!moved.every(Number.isFinite)) return;
    base.X[i][t] = moved;
    delete base.alpha;
    s.dragData = base;
    if (phase === 'move') {
      if (player.playing) { resumeAfterDrag = true; player.stop(); }
      renderPlane();
      if (!dragSolveBusy) {
        dragSolveBusy = true;
        refreshReferences(null, s.dragData).finally(() => { dragSolveBusy = false; });
      }
    } else {
      const data = roundDataset(s.dragData);
      s.dragData = null;
      s.setState({ data });
    }
  }
  return {
    onDrag,
    get resumeAfterDrag() { return resumeAfterDrag; },
    clearResume() { resumeAfterDrag = false; },
  };
}
