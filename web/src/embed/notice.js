// The figure's notice about its author's mistakes (the short version of the console warning).
export function noticeText(problems) {
  if (!problems.length) return null;
  const what = problems.map((p) => (p.param === null ? p.message : `${p.param}=${p.value}`)).join(', ');
  return `This figure has ${problems.length === 1 ? 'a setting' : 'settings'} it does not understand (${what}); it shows the defaults instead. Details in the browser console.`;
}

