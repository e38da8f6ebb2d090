// The lab's light/dark theme: the reader's choice (kept in localStorage) or the system's, applied
// to the page now and again when the system's changes.
const THEME_KEY = 'attnsvm-theme';
const darkQuery = () => matchMedia('(prefers-color-scheme: dark)');

function applyTheme(theme) {
  const dark = theme === 'dark' || (theme !== 'light' && darkQuery().matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

// createTheme(onChange(): redraw in the new colours) -> { toggle() }
export function createTheme(onChange) {
  let themePref = localStorage.getItem(THEME_KEY) ?? 'auto';
  applyTheme(themePref);
  darkQuery().addEventListener?.('change', () => { applyTheme(themePref); onChange(); });
  return {
    toggle() {
      const dark = document.documentElement.dataset.theme === 'dark';
      themePref = dark ? 'light' : 'dark';
      localStorage.setItem(THEME_KEY, themePref);
      applyTheme(themePref);
      onChange();
    },
  };
}
