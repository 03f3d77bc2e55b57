/**
 * MongoDB wire protocol framing: OP_QUERY (legacy handshake only), OP_REPLY, OP_MSG.
 * https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
import { deserialize, serialize, serializeWithBufferAndIndex } from 'bson';
import type { Doc } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const MAX_MESSAGE_BYTES = 48_000_000;
export const MAX_BSON_BYTES = 16 * 1024 * 1024;

const FLAG_CHECKSUM_PRESENT = 1;
export const FLAG_MORE_TO_COME = 2;

export class ProtocolError extends Error {}

/** Bytes of a BSON value of `type` at `p` (undefined for a type not known). */
function valueSize(buf: Buffer, type: number, p: number): number | undefined {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // code
    case 0x0e: // symbol
      return 4 + buf.readInt32LE(p);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return buf.readInt32LE(p);
    case 0x05: // binary
      return 5 + buf.readInt32LE(p);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0b: {
      // regex: two cstrings
      const a = buf.indexOf(0, p);
      const b = a < 0 ? -1 : buf.indexOf(0, a + 1);
      return b < 0 ? undefined : b + 1 - p;
    }
    case 0x0c: // DBPointer
      return 4 + buf.readInt32LE(p) + 12;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
  }
  return undefined;
}

/**
 * The bytes of each element of the top-level `documents` array of the (already decoded, so
 * well-formed) BSON document at [start, end), when there are `n` and each is a document.
 */
function documentsIn(buf: Buffer, start: number, end: number, n: number): Buffer[] | undefined {
  let p = start + 4;
  while (p < end - 1) {
    const type = buf[p] as number;
    const nameEnd = buf.indexOf(0, p + 1);
    if (nameEnd < 0 || nameEnd >= end) return undefined;
    const v = nameEnd + 1;
    const size = valueSize(buf, type, v);
    if (size === undefined) return undefined;
    if (type === 0x04 && buf.toString('latin1', p + 1, nameEnd) === 'documents') {
      const out: Buffer[] = [];
      let q = v + 4;
      const arrayEnd = v + size - 1;
      while (q < arrayEnd) {
        if (buf[q] !== 0x03) return undefined;
        const e = buf.indexOf(0, q + 1) + 1;
        const len = buf.readInt32LE(e);
        out.push(buf.subarray(e, e + len));
        q = e + len;
      }
      return out.length === n ? out : undefined;
    }
    p = v + size;
  }
  return undefined;
}

/**
 * On a parsed OP_MSG body of an insert (its `documents` in the body or in a document sequence):
 * the BSON bytes of each of those documents, in order, valid while the command runs (they point
 * into the message).
 */
export const RAW_DOCUMENTS = Symbol('raw documents');

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export type Request =
  | { kind: 'query'; header: Header; collection: string; query: Doc }
  | { kind: 'msg'; header: Header; flags: number; body: Doc };

const deserializeOptions = { promoteLongs: true, promoteValues: true, validation: { utf8: false } };

function readDoc(buf: Buffer, offset: number, end: number): { doc: Doc; next: number } {
  if (offset + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError('invalid BSON document size');
  const doc = deserialize(buf.subarray(offset, offset + size), deserializeOptions) as Doc;
  return { doc, next: offset + size };
}

function readCString(buf: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated cstring');
  return { value: buf.toString('utf8', offset, zero), next: zero + 1 };
}

/** Parses one complete message (header included). Throws ProtocolError on malformed input. */
export function parseMessage(buf: Buffer): Request {
  const header: Header = {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
  const end = header.length;
  if (header.opCode === OP_QUERY) {
    let off = 16 + 4; // flags
    const name = readCString(buf, off, end);
    off = name.next + 8; // numberToSkip, numberToReturn
    const { doc } = readDoc(buf, off, end);
    return { kind: 'query', header, collection: name.value, query: doc };
  }
  if (header.opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const sectionsEnd = flags & FLAG_CHECKSUM_PRESENT ? end - 4 : end;
    let off = 20;
    let body: Doc | undefined;
    const sequences: Array<[string, Doc[]]> = [];
    let rawDocuments: Buffer[] | undefined;
    while (off < sectionsEnd) {
      const kind = buf.readUInt8(off);
      off += 1;
      if (kind === 0) {
        if (body) throw new ProtocolError('OP_MSG has more than one body section');
        const r = readDoc(buf, off, sectionsEnd);
        body = r.doc;
        // An insert's documents in the body (what drivers send): their bytes too.
        if (Array.isArray(body.documents) && typeof body.insert === 'string')
          rawDocuments ??= documentsIn(buf, off, r.next, body.documents.length);
        off = r.next;
      } else if (kind === 1) {
        if (off + 4 > sectionsEnd) throw new ProtocolError('truncated document sequence');
        const size = buf.readInt32LE(off);
        const seqEnd = off + size;
        if (size < 5 || seqEnd > sectionsEnd)
          throw new ProtocolError('invalid document sequence size');
        const id = readCString(buf, off + 4, seqEnd);
        const docs: Doc[] = [];
        const raws: Buffer[] | undefined = id.value === 'documents' ? [] : undefined;
        let p = id.next;
        while (p < seqEnd) {
          const r = readDoc(buf, p, seqEnd);
          docs.push(r.doc);
          raws?.push(buf.subarray(p, r.next));
          p = r.next;
        }
        sequences.push([id.value, docs]);
        if (raws) rawDocuments = raws;
        off = seqEnd;
      } else {
        throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new ProtocolError('OP_MSG without a body section');
    for (const [id, docs] of sequences) body[id] = docs;
    if (rawDocuments) (body as Record<symbol, unknown>)[RAW_DOCUMENTS] = rawDocuments;
    return { kind: 'msg', header, flags, body };
  }
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

export function encodeReply(requestId: number, responseTo: number, doc: Doc): Buffer {
  const body = serialize(doc);
  const fixed = Buffer.alloc(20);
  fixed.writeInt32LE(0, 0); // responseFlags
  fixed.writeBigInt64LE(0n, 4); // cursorID
  fixed.writeInt32LE(0, 12); // startingFrom
  fixed.writeInt32LE(1, 16); // numberReturned
  const length = 16 + fixed.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_REPLY), fixed, body]);
}

let scratch: Buffer | undefined;
/** A reply's 16-byte header, flagBits and section kind come before its body. */
const MSG_PREFIX = 21;

/** An OP_MSG reply: the body serialized once after room for the prefix, then copied out once. */
export function encodeMsg(requestId: number, responseTo: number, doc: Doc): Buffer {
  scratch ??= Buffer.allocUnsafe(MSG_PREFIX + MAX_BSON_BYTES + 64 * 1024);
  let end: number;
  try {
    end = serializeWithBufferAndIndex(doc, scratch, { index: MSG_PREFIX }) + 1;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return encodeMsgAlone(requestId, responseTo, doc);
  }
  const out = Buffer.allocUnsafe(end);
  scratch.copy(out, 0, 0, end);
  out.writeInt32LE(end, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_MSG, 12);
  out.writeUInt32LE(0, 16); // flagBits
  out[20] = 0; // section kind 0: the body
  return out;
}

/** encodeMsg for a body larger than the scratch buffer (serialize says what is wrong). */
function encodeMsgAlone(requestId: number, responseTo: number, doc: Doc): Buffer {
  const body = serialize(doc);
  const flags = Buffer.alloc(5); // flagBits (0) + section kind 0
  const length = 16 + flags.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_MSG), flags, body]);
}
