/**
 * CRC-64 as mongodump and mongorestore compute an archive namespace's checksum: Go's
 * `crc64.New(crc64.MakeTable(crc64.ECMA))`, i.e. the ECMA-182 polynomial bit-reflected
 * (0xC96C5795D7870F42), initial value and final XOR all ones (the variant also called CRC-64/XZ;
 * the check value of "123456789" is 0x995DC9BBDF1939FA).
 *
 * Kept as two 32-bit halves (BigInt per byte is ~50x slower), sliced by 8: a dump hashes every
 * byte of every document.
 */
const POLY_HI = 0xc96c5795;
const POLY_LO = 0xd7870f42;

/** TABLES[k][b]: the CRC register after shifting byte b through 8 + 8k zero bits (slicing-by-8). */
const HI: Uint32Array[] = [];
const LO: Uint32Array[] = [];
{
  const hi0 = new Uint32Array(256);
  const lo0 = new Uint32Array(256);
  for (let b = 0; b < 256; b++) {
    let hi = 0;
    let lo = b;
    for (let bit = 0; bit < 8; bit++) {
      const lsb = lo & 1;
      lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
      hi >>>= 1;
      if (lsb) {
        hi = (hi ^ POLY_HI) >>> 0;
        lo = (lo ^ POLY_LO) >>> 0;
      }
    }
    hi0[b] = hi;
    lo0[b] = lo;
  }
  HI.push(hi0);
  LO.push(lo0);
  for (let k = 1; k < 8; k++) {
    const prevHi = HI[k - 1] as Uint32Array;
    const prevLo = LO[k - 1] as Uint32Array;
    const hi = new Uint32Array(256);
    const lo = new Uint32Array(256);
    for (let b = 0; b < 256; b++) {
      // One more zero byte: crc = T0[crc & 0xff] ^ (crc >>> 8).
      const pl = prevLo[b] as number;
      const ph = prevHi[b] as number;
      const i = pl & 0xff;
      lo[b] = ((lo0[i] as number) ^ ((pl >>> 8) | ((ph & 0xff) << 24))) >>> 0;
      hi[b] = ((hi0[i] as number) ^ (ph >>> 8)) >>> 0;
    }
    HI.push(hi);
    LO.push(lo);
  }
}
const [H0, H1, H2, H3, H4, H5, H6, H7] = HI as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];
const [L0, L1, L2, L3, L4, L5, L6, L7] = LO as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];

export class Crc64 {
  // The register, complemented (Go's update starts with ^crc and ends with ^crc).
  private hi = 0xffffffff;
  private lo = 0xffffffff;

  update(bytes: Uint8Array): this {
    let hi = this.hi;
    let lo = this.lo;
    let i = 0;
    const n = bytes.length;
    for (; i + 8 <= n; i += 8) {
      const a =
        (lo ^
          (bytes[i] as number) ^
          ((bytes[i + 1] as number) << 8) ^
          ((bytes[i + 2] as number) << 16) ^
          ((bytes[i + 3] as number) << 24)) >>>
        0;
      const b =
        (hi ^
          (bytes[i + 4] as number) ^
          ((bytes[i + 5] as number) << 8) ^
          ((bytes[i + 6] as number) << 16) ^
          ((bytes[i + 7] as number) << 24)) >>>
        0;
      lo =
        ((L7[a & 0xff] as number) ^
          (L6[(a >>> 8) & 0xff] as number) ^
          (L5[(a >>> 16) & 0xff] as number) ^
          (L4[a >>> 24] as number) ^
          (L3[b & 0xff] as number) ^
          (L2[(b >>> 8) & 0xff] as number) ^
          (L1[(b >>> 16) & 0xff] as number) ^
          (L0[b >>> 24] as number)) >>>
        0;
      hi =
        ((H7[a & 0xff] as number) ^
          (H6[(a >>> 8) & 0xff] as number) ^
          (H5[(a >>> 16) & 0xff] as number) ^
          (H4[a >>> 24] as number) ^
          (H3[b & 0xff] as number) ^
          (H2[(b >>> 8) & 0xff] as number) ^
          (H1[(b >>> 16) & 0xff] as number) ^
          (H0[b >>> 24] as number)) >>>
        0;
    }
    for (; i < n; i++) {
      const idx = (lo ^ (bytes[i] as number)) & 0xff;
      lo = ((L0[idx] as number) ^ ((lo >>> 8) | ((hi & 0xff) << 24))) >>> 0;
      hi = ((H0[idx] as number) ^ (hi >>> 8)) >>> 0;
    }
    this.hi = hi;
    this.lo = lo;
    return this;
  }

  /** The checksum as an unsigned 64-bit integer. */
  digest(): bigint {
    return (BigInt(~this.hi >>> 0) << 32n) | BigInt(~this.lo >>> 0);
  }
}

/** The CRC-64 of some bytes at once. */
export function crc64(bytes: Uint8Array): bigint {
  return new Crc64().update(bytes).digest();
}
