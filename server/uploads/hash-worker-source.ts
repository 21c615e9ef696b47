/**
 * The hashing thread's code, run with `new Worker(source, { eval: true })`: plain CommonJS, so it
 * runs the same under tsx, vitest and a build, with no loader. It owns each upload's running
 * sha256 ({hash, offset}: covers exactly the file's first `offset` bytes) and handles messages
 * strictly in order: a catch-up read from the file finishes before the next chunk is hashed.
 * Chunks arrive as {slot, length} in the ring (a SharedArrayBuffer) the receiving thread shares
 * with it: hashed in place, and the answer tells that thread the slot may be refilled.
 */
export const HASH_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');

const MAX_STATES = 10000;
const { ring, slotBytes } = workerData;
const states = new Map();

function put(id, state) {
  states.delete(id);
  states.set(id, state);
  if (states.size > MAX_STATES) states.delete(states.keys().next().value);
}

async function hashRange(hash, path, from, to) {
  if (to <= from) return;
  for await (const chunk of createReadStream(path, { start: from, end: to - 1, highWaterMark: 1 << 20 })) hash.update(chunk);
}

/**
 * The state at exactly offset, caught up from the file when it is behind or missing. Out of the
 * map while it is read: a read that fails leaves no half-fed state behind (later chunks of that
 * upload are then ignored, and its digest is taken from the file).
 */
async function at(id, path, offset) {
  let state = states.get(id);
  states.delete(id);
  if (!state || state.offset > offset) state = { hash: createHash('sha256'), offset: 0 };
  await hashRange(state.hash, path, state.offset, offset);
  state.offset = offset;
  put(id, state);
  return state;
}

const ops = {
  start: ({ id }) => put(id, { hash: createHash('sha256'), offset: 0 }),
  begin: async ({ id, path, offset }) => {
    await at(id, path, offset);
  },
  update: ({ id, slot, length }) => {
    const state = states.get(id);
    if (state) {
      state.hash.update(new Uint8Array(ring, slot * slotBytes, length));
      state.offset += length;
    }
    return length;
  },
  settle: ({ id, size }) => {
    if (states.get(id)?.offset !== size) states.delete(id);
  },
  digest: async ({ id, path, size }) => {
    const hex = (await at(id, path, size)).hash.digest('hex');
    states.delete(id);
    return hex;
  },
  covered: ({ id }) => states.get(id)?.offset ?? null,
  forget: ({ id }) => {
    states.delete(id);
  },
};

let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue.then(async () => {
    try {
      const result = await ops[msg.op](msg);
      parentPort.postMessage({ seq: msg.seq, result: result ?? null });
    } catch (e) {
      parentPort.postMessage({ seq: msg.seq, error: String(e && e.message ? e.message : e) });
    }
  });
});
`;
