// Test-only: react-router reads TextEncoder at import time and jsdom lacks it. Import this first.
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
