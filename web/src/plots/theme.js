// Colours for plots: the Okabe-Ito palette (distinguishable with the common colour-vision
// deficiencies), read with the page's light/dark theme so exported SVG/PNG carry explicit colours.
import { interpolateViridis, interpolatePuOr } from 'd3-scale-chromatic';

export const OKABE_ITO = {
  blue: '#0072B2', vermillion: '#D55E00', green: '#009E73', purple: '#CC79A7',
  orange: '#E69F00', sky: '#56B4E9', yellow: '#F0E442', black: '#000000',
};

// Sequence colours (yellow last: weakest contrast on white).
const SEQ = [OKABE_ITO.blue, OKABE_ITO.vermillion, OKABE_ITO.green, OKABE_ITO.purple,
  OKABE_ITO.orange, OKABE_ITO.sky, OKABE_ITO.yellow];

export function seqColor(i, dark = isDark()) {
  if (i === SEQ.length) return dark ? '#dddddd' : '#444444';
  return SEQ[i % (SEQ.length + 1)] ?? (dark ? '#dddddd' : '#444444');
}

// Reference norms: colour and dash (Frobenius dashed, nuclear dotted, l_p dash-dot).
export const REF_STYLE = {
  fro: { color: OKABE_ITO.blue, dash: '7 4', label: 'Frobenius W^mm' },
  nuclear: { color: OKABE_ITO.vermillion, dash: '2 3', label: 'nuclear W^mm_*' },
  lp: { color: OKABE_ITO.green, dash: '8 3 2 3', label: 'l_p W^mm_p' },
  gen: { color: OKABE_ITO.purple, dash: '12 4', label: 'generalized W_fin + R W_dir' },
  // joint training: the head v(k) against the head SVM's v^mm (solid: a different quantity)
  head: { color: OKABE_ITO.orange, dash: '', label: 'head: v(k) vs v^mm' },
};

export function isDark() {
  if (typeof document === 'undefined') return false;
  return document.documentElement.dataset.theme === 'dark';
}

export function themeColors() {
  const dark = isDark();
  return {
    dark,
    fg: dark ? '#e6e6e6' : '#1a1a1a',
    muted: dark ? '#a0a0a0' : '#5a5a5a',
    grid: dark ? '#3a3a3a' : '#e3e3e3',
    bg: dark ? '#1b1d21' : '#ffffff',
    font: '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  };
}

export const seqScale = interpolateViridis;          // 0..1 probabilities
export const divScale = (t) => interpolatePuOr(1 - t); // -1..1 mapped to 0..1 (orange negative, purple positive)
