import './zod-without-eval';
import { z } from 'zod';

describe('zod without eval', () => {
  it('is jitless once imported, in the zod loaded after it', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('parses objects without compiling a parser (no Function constructor)', () => {
    const original = globalThis.Function;
    const calls: unknown[] = [];
    globalThis.Function = new Proxy(original, {
      construct: (target, args) => {
        calls.push(args);
        return Reflect.construct(target, args);
      },
      apply: (target, self, args) => {
        calls.push(args);
        return Reflect.apply(target, self, args);
      },
    });
    try {
      const schema = z.object({ name: z.string(), age: z.number() });
      for (let i = 0; i < 3; i += 1) expect(schema.parse({ name: 'Ada', age: 30 })).toBeTruthy();
    } finally {
      globalThis.Function = original;
    }
    expect(calls).toEqual([]);
  });
});
