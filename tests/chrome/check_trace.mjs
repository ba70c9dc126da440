// Loads a Chrome trace (.json or .json.gz) with Chrome DevTools' trace engine, headless,
// and prints what the engine found as one JSON line:
//   {"calls":N,"states":N,"message_slices":N,"collectives":N,"flows":N,"threads":N,"errors":N}
// calls: slices on threads other than mtf's message/collective/event/state slices;
// states: the slices of category "state" (Paraver's thread states); flows: the
// send-to-receive arrows the engine joined; errors: console.error calls during parsing.
// Exit status 1 if the engine throws. Usage: node check_trace.mjs TRACE
import fs from 'node:fs';
import zlib from 'node:zlib';

// The engine expects a browser's DOMRect; a minimal stand-in is enough for parsing.
globalThis.DOMRect ??= class DOMRect {
  constructor(x = 0, y = 0, width = 0, height = 0) {
    Object.assign(this, {x, y, width, height});
  }
  static fromRect(r = {}) {
    return new DOMRect(r.x, r.y, r.width, r.height);
  }
};
globalThis.window ??= globalThis;

const {TraceModel} = await import('@paulirish/trace_engine');

function load(path) {
  let bytes = fs.readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
  const json = JSON.parse(bytes.toString('utf8'));
  return json.traceEvents ?? json;
}

const path = process.argv[2];
if (!path) {
  console.log('usage: node check_trace.mjs TRACE');
  process.exit(1);
}
let errors = 0;
const consoleError = console.error;
console.error = (...args) => {
  ++errors;
  consoleError(...args);
};
const model = TraceModel.Model.createWithAllHandlers();
await model.parse(load(path));
const data = model.parsedTrace(0).data;
const counts = {calls: 0, states: 0, message_slices: 0, collectives: 0, flows: data.Flows.flows.length,
                threads: 0, errors};
const notCalls = {message: 'message_slices', collective: 'collectives', state: 'states',
                  event: null};
for (const [, proc] of data.Renderer.processes) {
  for (const [, thread] of proc.threads) {
    ++counts.threads;
    for (const entry of thread.entries) {
      if (!(entry.cat in notCalls)) ++counts.calls;
      else if (notCalls[entry.cat]) ++counts[notCalls[entry.cat]];
    }
  }
}
console.log(JSON.stringify(counts));
