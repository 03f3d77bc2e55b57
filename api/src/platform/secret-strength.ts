/** Characters of a secret the estimate reads (the search for repeats is quadratic). */
const MAX_CHARACTERS = 1024;

/**
 * How many bits of entropy a secret such as JWT_SECRET has, estimated conservatively from the
 * value alone. A random secret (`openssl rand -base64 48`: 64 characters) scores above 300 bits;
 * a long but made-up one (`'a'.repeat(32)`, `password1234...`, a word repeated, the alphabet)
 * scores far below 128. The estimate is the smallest of two, each an upper bound on what an
 * attacker guessing with that model needs:
 *
 * - **steps**: the Shannon entropy of the differences between consecutive characters' code
 *   points, times the length. Runs and sequences (`aaaa`, `abcd`, `0123456789`) have one
 *   difference over and over, hence almost no entropy.
 * - **repeats**: the string read as a compressor would (LZ77): a substring of 3 or more
 *   characters that already occurred costs only its position and length (log2 of each); every
 *   other character costs the Shannon entropy per character of the whole string (its empirical
 *   character frequencies: 16 symbols can never give more than 4 bits a character, and the
 *   empirical estimate of a short string is below that). A repeated word or block costs almost
 *   nothing beyond its first occurrence.
 *
 * The per-character estimate from observed frequencies underrates short random strings (32 random
 * hexadecimal characters, 128 true bits, score about 115): the price of being conservative. A
 * secret of 44 base64 or 64 hexadecimal random characters clears 128 bits with a wide margin.
 * Dictionaries (zxcvbn's) are left out on purpose: they suit passwords people choose, not secrets
 * an operator generates, and would add megabytes to the API.
 */
export function estimatedEntropyBits(secret: string): number {
  // A longer secret is judged by its first characters only (an underestimate: the safe side).
  const codes = Array.from(secret, (char) => char.codePointAt(0)!).slice(0, MAX_CHARACTERS);
  if (codes.length === 0) return 0;
  const steps = codes.map((code, i) => (i === 0 ? code : code - codes[i - 1]!));
  const stepBits = shannonBitsPerSymbol(steps) * codes.length;
  const perCharacter = shannonBitsPerSymbol(codes);
  let repeatBits = 0;
  for (let i = 0; i < codes.length;) {
    const { length } = longestEarlierMatch(codes, i);
    if (length >= 3) {
      repeatBits += Math.log2(i) + Math.log2(length);
      i += length;
    } else {
      repeatBits += perCharacter;
      i += 1;
    }
  }
  return Math.floor(Math.min(stepBits, repeatBits));
}

/** Shannon entropy, in bits per symbol, of the symbols' observed frequencies. */
function shannonBitsPerSymbol(symbols: number[]): number {
  const counts = new Map<number, number>();
  for (const symbol of symbols) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / symbols.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The longest run starting at `at` that also starts earlier (it may overlap `at`, as in LZ77). */
function longestEarlierMatch(codes: number[], at: number): { length: number } {
  let best = 0;
  for (let start = 0; start < at; start++) {
    let length = 0;
    while (at + length < codes.length && codes[start + length] === codes[at + length]) length++;
    if (length > best) best = length;
  }
  return { length: best };
}
