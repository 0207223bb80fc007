#!/usr/bin/env node
// Loads one trace file into Perfetto's own trace processor and runs SQL over it: the WebAssembly build that
// Perfetto UI v52 runs in a web worker (`engine_bundle.js` and its `.wasm`), run unmodified under node and
// spoken to as the UI speaks to it, through its RPC stream (TraceProcessorRpcStream in Perfetto's
// `trace_processor.proto`): reset, append the file in chunks, finalize, then one streaming query per SQL
// statement. No browser and no npm package; `scripts/setup --with-perfetto` fetches and checks the build.
//
// Usage: scripts/perfetto/trace-processor.mjs [--engine DIR] TRACE [SQL ...]
//   --engine DIR (or LIFETRACE_PERFETTO_DIR): where engine_bundle.js and the .wasm are; default
//   ${XDG_CACHE_HOME:-$HOME/.cache}/lifetrace/perfetto-v52, where scripts/setup --with-perfetto puts them.
//
// Prints one JSON object on standard output:
//   {"trace": TRACE, "bytes": size, "trace_processor": "Perfetto v52.0-...", "load_seconds": s,
//    "import_errors": [{"name", "idx", "severity", "value"}],
//    "results": [{"sql", "columns": [...], "rows": [[...], ...]}, ...]}
// `import_errors` are the `stats` entries of severity `error` or `data_loss` with a value above 0: what the UI
// shows as import errors (dropped events among them). Integers beyond 2^53 are strings; blobs are base64.
//
// Exit codes, each with one line on standard error naming the file:
//   0  loaded, every query ran
//   1  load failure: the trace processor rejected the file (with the byte offset of the chunk it rejected)
//      or crashed loading it
//   2  usage: bad arguments, or the trace cannot be read
//   3  setup failure: no trace processor build at the engine directory, or it would not start
//   4  query failure: a query failed (the trace loaded)
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import {webcrypto} from 'node:crypto';

const EXIT = {ok: 0, load: 1, usage: 2, setup: 3, query: 4};
// The engine copies each request into a 32 MiB buffer of its own; a chunk and its framing stay below that.
const CHUNK = 16 * 1024 * 1024;
const HEADROOM = 32;
// TraceProcessorRpc.TraceProcessorMethod, and the fields of TraceProcessorRpc used here.
const METHOD = {append: 1, finalize: 2, query: 3, status: 10, reset: 11};
const FIELD = {seq: 1, request: 2, response: 3, fatal: 5, appendData: 101, queryArgs: 103, resetArgs: 107,
  appendResult: 201, queryResult: 203, status: 210, finalizeResult: 212};
// QueryResult.CellsBatch.CellType
const CELL = {null: 1, varint: 2, float64: 3, string: 4, blob: 5};

class Failure extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

// --- protobuf wire format: only what the RPC needs ---------------------------------------------------------

/** Writes `value` (a non-negative safe integer) as a varint at `offset`; returns the offset after it. */
function putVarint(buffer, offset, value) {
  while (value >= 0x80) {
    buffer[offset++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  buffer[offset++] = value;
  return offset;
}

function varintLength(value) {
  let length = 1;
  while (value >= 0x80) { value = Math.floor(value / 0x80); length++; }
  return length;
}

/** Reads a varint as a BigInt (cells are int64); returns [value, next offset]. */
function getVarint(bytes, offset) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (offset >= bytes.length) throw new Error('truncated varint in a reply');
    const byte = bytes[offset++];
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [value, offset];
    shift += 7n;
  }
}

/** The fields of one message: Map of field number to [{wire, value}], value a BigInt or a byte view. */
function fields(bytes) {
  const map = new Map();
  let offset = 0;
  while (offset < bytes.length) {
    let key;
    [key, offset] = getVarint(bytes, offset);
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value;
    if (wire === 0) [value, offset] = getVarint(bytes, offset);
    else if (wire === 1 || wire === 5) { value = bytes.subarray(offset, offset + (wire === 1 ? 8 : 4)); offset += wire === 1 ? 8 : 4; }
    else if (wire === 2) {
      let length;
      [length, offset] = getVarint(bytes, offset);
      value = bytes.subarray(offset, offset + Number(length));
      offset += Number(length);
    } else throw new Error(`wire type ${wire} in a reply`);
    if (!map.has(number)) map.set(number, []);
    map.get(number).push({wire, value});
  }
  return map;
}

const one = (map, number) => map.get(number)?.[0]?.value;
const text = (bytes) => (bytes === undefined ? '' : Buffer.from(bytes).toString('utf8'));

/** A length-delimited field holding `payload`. */
function lengthDelimited(number, payload) {
  const head = Buffer.alloc(2 * 10);
  let end = putVarint(head, 0, (number << 3) | 2);
  end = putVarint(head, end, payload.length);
  return Buffer.concat([head.subarray(0, end), payload]);
}

// --- the engine worker, hosted in node -----------------------------------------------------------------------

/**
 * Runs engine_bundle.js as Perfetto UI runs it in a worker: a worker scope (`self`, `WorkerGlobalScope`, no
 * `process`, so Emscripten takes the web-worker path), a synchronous XMLHttpRequest that reads the `.wasm` from
 * the engine directory, and a MessagePort whose `postMessage` receives the replies.
 */
class Engine {
  constructor(directory) {
    this.received = [];
    this.log = [];
    this.seq = 0;
    const bundle = path.join(directory, 'engine_bundle.js');
    if (!fs.existsSync(bundle)) {
      throw new Failure(EXIT.setup, `${bundle}: no trace processor build here (run scripts/setup --with-perfetto)`);
    }
    const port = {onmessage: null, postMessage: (data) => this.received.push(Buffer.from(data))};
    const self = {location: {href: `http://localhost/${path.basename(directory)}/engine_bundle.js`, host: 'localhost', protocol: 'http:'}};
    class WasmRequest {
      open(_method, url) { this.url = String(url); }
      send() {
        const file = path.join(directory, this.url.split('/').pop());
        if (!fs.existsSync(file)) throw new Failure(EXIT.setup, `${file}: missing (run scripts/setup --with-perfetto)`);
        const data = fs.readFileSync(file);
        this.status = 200;
        this.response = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
      }
    }
    const keep = (...parts) => {
      const line = parts.map(String).join(' ').trim();
      if (line && !line.includes('unsupported syscall')) this.log.push(line);
      if (this.log.length > 50) this.log.shift();
    };
    const quiet = {log: keep, info: keep, warn: keep, error: keep, debug: keep};
    const navigator = {language: 'en-US', languages: ['en-US'], userAgent: 'node'};
    const run = new Function('self', 'WorkerGlobalScope', 'process', 'XMLHttpRequest', 'console', 'navigator',
      'location', 'importScripts', 'crypto', fs.readFileSync(bundle, 'utf8'));
    run(self, function WorkerGlobalScope() {}, undefined, WasmRequest, quiet, navigator, self.location, undefined, webcrypto);
    if (typeof self.onmessage !== 'function') throw new Failure(EXIT.setup, `${bundle}: the bundle installed no message handler`);
    self.onmessage({data: port});
    this.port = port;
  }

  /** Waits for the runtime, then asks for its version. */
  async start() {
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    const status = fields(one(this.call(METHOD.status, Buffer.alloc(0)), FIELD.status) ?? Buffer.alloc(0));
    this.version = text(one(status, 2));
    return this;
  }

  /** Sends one framed request whose arguments are already encoded at frame[start + header ..< end]. */
  sendFramed(method, frame, argumentsStart, argumentsEnd) {
    const inner = 1 + varintLength(this.seq) + 1 + varintLength(method) + (argumentsEnd - argumentsStart);
    const start = argumentsStart - (1 + varintLength(inner)) - (inner - (argumentsEnd - argumentsStart));
    if (start < 0) throw new Error('request header does not fit its headroom');
    let offset = start;
    frame[offset++] = (1 << 3) | 2;
    offset = putVarint(frame, offset, inner);
    frame[offset++] = FIELD.seq << 3;
    offset = putVarint(frame, offset, this.seq++);
    frame[offset++] = FIELD.request << 3;
    offset = putVarint(frame, offset, method);
    this.deliver(frame.subarray(start, argumentsEnd));
  }

  deliver(bytes) {
    try {
      this.port.onmessage({data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)});
    } catch (error) {
      throw new Error(`the trace processor crashed: ${error?.message ?? error}`);
    }
  }

  /** Sends a request with `args` (encoded fields) and returns the replies it produced. */
  call(method, args) {
    const frame = Buffer.alloc(HEADROOM + args.length);
    args.copy(frame, HEADROOM);
    this.sendFramed(method, frame, HEADROOM, frame.length);
    return this.reply(method);
  }

  /** The next reply, which must answer `method`. */
  reply(method) {
    if (!this.pending?.length) this.pending = this.replies();
    const next = this.pending.shift();
    if (!next) throw new Error(`no reply to request ${method}`);
    const fatal = text(one(next, FIELD.fatal));
    if (fatal) throw new Error(`the trace processor failed: ${fatal}`);
    if (Number(one(next, FIELD.response) ?? -1) !== method) throw new Error(`a reply to another request than ${method}`);
    return next;
  }

  /** Every complete TraceProcessorRpc received so far, decoded. */
  replies() {
    const bytes = Buffer.concat(this.received);
    this.received = [];
    const decoded = [];
    for (const {value} of fields(bytes).get(1) ?? []) decoded.push(fields(value));
    return decoded;
  }

  /** Appends one chunk read into frame[HEADROOM ..< HEADROOM + length]; returns the engine's error or ''. */
  append(frame, length) {
    // The chunk is the append_trace_data field (101): its tag and length go just before it.
    const tag = Buffer.alloc(12);
    let end = putVarint(tag, 0, (FIELD.appendData << 3) | 2);
    end = putVarint(tag, end, length);
    tag.copy(frame, HEADROOM - end, 0, end);
    this.sendFramed(METHOD.append, frame, HEADROOM - end, HEADROOM + length);
    const result = one(this.reply(METHOD.append), FIELD.appendResult);
    return result ? text(one(fields(result), 2)) : '';
  }

  finalize() {
    const result = one(this.call(METHOD.finalize, Buffer.alloc(0)), FIELD.finalizeResult);
    return result ? text(one(fields(result), 1)) : '';
  }

  /** Runs one statement; returns {columns, rows} or {error}. */
  query(sql) {
    const args = lengthDelimited(FIELD.queryArgs, lengthDelimited(1, Buffer.from(sql, 'utf8')));
    let reply = this.call(METHOD.query, args);
    let columns = [];
    const rows = [];
    let row = [];
    for (;;) {
      const result = fields(one(reply, FIELD.queryResult) ?? Buffer.alloc(0));
      if (result.has(1)) columns = result.get(1).map(({value}) => text(value));
      const error = text(one(result, 2));
      if (error) return {error};
      let last = !result.has(3);
      for (const {value} of result.get(3) ?? []) {
        const batch = fields(value);
        const varints = packed(batch.get(2), (bytes, at) => getVarint(bytes, at));
        const doubles = packed(batch.get(3), (bytes, at) => [bytes.readDoubleLE(at), at + 8]);
        const blobs = (batch.get(4) ?? []).map(({value: blob}) => Buffer.from(blob).toString('base64'));
        const strings = (batch.get(5) ?? []).map(({value: s}) => text(s)).join('').split('\0');
        let v = 0; let d = 0; let s = 0; let b = 0;
        for (const type of packed(batch.get(1), (bytes, at) => getVarint(bytes, at))) {
          switch (Number(type)) {
            case CELL.null: row.push(null); break;
            case CELL.varint: row.push(integer(varints[v++])); break;
            case CELL.float64: row.push(doubles[d++]); break;
            case CELL.string: row.push(strings[s++]); break;
            case CELL.blob: row.push(blobs[b++]); break;
            default: throw new Error(`cell type ${type} in a query result`);
          }
          if (row.length === columns.length) { rows.push(row); row = []; }
        }
        if (one(batch, 6)) last = true;
      }
      if (last) return {columns, rows};
      reply = this.reply(METHOD.query);
    }
  }
}

/** The values of a packed repeated field (or of unpacked ones), read with `read(bytes, offset)`. */
function packed(entries, read) {
  const values = [];
  for (const {wire, value} of entries ?? []) {
    if (wire === 0) { values.push(value); continue; }
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.length);
    for (let at = 0; at < bytes.length;) { let next; [next, at] = read(bytes, at); values.push(next); }
  }
  return values;
}

function integer(value) {
  const signed = value >= 1n << 63n ? value - (1n << 64n) : value;
  return signed <= BigInt(Number.MAX_SAFE_INTEGER) && signed >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(signed) : String(signed);
}

// --- the command ---------------------------------------------------------------------------------------------

function defaultEngineDirectory() {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return process.env.LIFETRACE_PERFETTO_DIR || path.join(cache, 'lifetrace', 'perfetto-v52');
}

/** Loads `trace` chunk by chunk through one reused buffer; a rejected chunk is reported with its offset. */
function load(engine, trace) {
  let descriptor;
  try {
    descriptor = fs.openSync(trace, 'r');
  } catch (error) {
    throw new Failure(EXIT.usage, `${trace}: cannot read: ${error.message}`);
  }
  const size = fs.fstatSync(descriptor).size;
  const frame = Buffer.alloc(HEADROOM + CHUNK);
  let offset = 0;
  try {
    engine.call(METHOD.reset, lengthDelimited(FIELD.resetArgs, Buffer.alloc(0)));
    for (;;) {
      const length = fs.readSync(descriptor, frame, HEADROOM, CHUNK, offset);
      if (length === 0) break;
      const error = engine.append(frame, length);
      if (error) throw new Failure(EXIT.load, `${trace}: byte ${offset} of ${size}: ${error}`);
      offset += length;
    }
    const error = engine.finalize();
    if (error) throw new Failure(EXIT.load, `${trace}: at its end (${size} bytes): ${error}`);
  } catch (error) {
    if (error instanceof Failure) throw error;
    const log = engine.log.length ? ` (last log line: ${engine.log[engine.log.length - 1]})` : '';
    throw new Failure(EXIT.load, `${trace}: byte ${offset} of ${size}: ${error.message}${log}`);
  } finally {
    fs.closeSync(descriptor);
  }
  return size;
}

async function main(argv) {
  let directory = defaultEngineDirectory();
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--engine' && i + 1 < argv.length) directory = argv[++i];
    else if (argv[i] === '--') positional.push(...argv.slice(i + 1)), i = argv.length;
    else if (argv[i].startsWith('--')) throw new Failure(EXIT.usage, `unknown option ${argv[i]} (usage: trace-processor.mjs [--engine DIR] TRACE [SQL ...])`);
    else positional.push(argv[i]);
  }
  if (positional.length === 0) throw new Failure(EXIT.usage, 'usage: trace-processor.mjs [--engine DIR] TRACE [SQL ...]');
  const [trace, ...queries] = positional;
  if (!fs.existsSync(trace)) throw new Failure(EXIT.usage, `${trace}: no such file`);
  let engine;
  try {
    engine = await new Engine(directory).start();
  } catch (error) {
    if (error instanceof Failure) throw error;
    throw new Failure(EXIT.setup, `${directory}: the trace processor would not start: ${error.message}`);
  }
  const started = process.hrtime.bigint();
  const bytes = load(engine, trace);
  const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const run = (sql) => {
    const result = engine.query(sql);
    if (result.error) throw new Failure(EXIT.query, `${trace}: query failed: ${result.error.trim().split('\n').pop()}: ${sql}`);
    return {sql, columns: result.columns, rows: result.rows};
  };
  const errors = run("select name, idx, severity, value from stats where value > 0 and severity in ('error', 'data_loss') order by name");
  const importErrors = errors.rows.map(([name, idx, severity, value]) => ({name, idx, severity, value}));
  const results = queries.map(run);
  return {trace, bytes, trace_processor: engine.version, load_seconds: Number(loadSeconds.toFixed(3)),
    import_errors: importErrors, results};
}

main(process.argv.slice(2)).then(
  (report) => process.stdout.write(JSON.stringify(report) + '\n', () => process.exit(EXIT.ok)),
  (error) => {
    const code = error instanceof Failure ? error.code : EXIT.load;
    process.stderr.write(`trace-processor: ${error.message.split('\n')[0]}\n`, () => process.exit(code));
  });
