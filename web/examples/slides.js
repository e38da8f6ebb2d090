// The example deck (slides.html): reveal.js with its default settings, which lazy-load iframes with a
// data-src when their slide shows and unload them when it is left. Test hook: window.__deck.
import Reveal from 'reveal.js';
import 'reveal.js/dist/reveal.css';
import 'reveal.js/dist/theme/white.css';

const deck = new Reveal({ hash: true, width: 1280, height: 800, margin: 0.04 });
deck.initialize().then(() => { window.__deck = deck; });
