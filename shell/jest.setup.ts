import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// react-router reads these at import time; jsdom does not provide them.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom has no layout: its window.scrollTo only reports "Not implemented". The shell scrolls on
// every new page (app/scroll-on-navigate.ts); tests that care spy on this.
window.scrollTo = (() => undefined) as typeof window.scrollTo;
