/**
 * MongoDB wire protocol framing: OP_QUERY (legacy handshake only), OP_REPLY, OP_MSG.
 * https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
import { deserialize, serialize } from 'bson';
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
    while (off < sectionsEnd) {
      const kind = buf.readUInt8(off);
      off += 1;
      if (kind === 0) {
        if (body) throw new ProtocolError('OP_MSG has more than one body section');
        const r = readDoc(buf, off, sectionsEnd);
        body = r.doc;
        off = r.next;
      } else if (kind === 1) {
        if (off + 4 > sectionsEnd) throw new ProtocolError('truncated document sequence');
        const size = buf.readInt32LE(off);
        const seqEnd = off + size;
        if (size < 5 || seqEnd > sectionsEnd)
          throw new ProtocolError('invalid document sequence size');
        const id = readCString(buf, off + 4, seqEnd);
        const docs: Doc[] = [];
        let p = id.next;
        while (p < seqEnd) {
          const r = readDoc(buf, p, seqEnd);
          docs.push(r.doc);
          p = r.next;
        }
        sequences.push([id.value, docs]);
        off = seqEnd;
      } else {
        throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new ProtocolError('OP_MSG without a body section');
    for (const [id, docs] of sequences) body[id] = docs;
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

export function encodeMsg(requestId: number, responseTo: number, doc: Doc): Buffer {
  const body = serialize(doc);
  const flags = Buffer.alloc(5); // flagBits (0) + section kind 0
  const length = 16 + flags.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_MSG), flags, body]);
}
