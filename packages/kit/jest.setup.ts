import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// react-router reads TextEncoder at import time and jsdom lacks it.
Object.assign(globalThis, { TextEncoder, TextDecoder });
