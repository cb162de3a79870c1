// @@HEADER@@
// Run: node THIS_FILE (Botzone: language JavaScript; keep-running allowed).
//
// A Rust bot compiled to WebAssembly (wasm32-wasip1, lowered to WebAssembly
// 1.0 "MVP") and this loader: plain CommonJS that runs on old Node.js
// versions too (no ES modules, no BigInt, no node:wasi). It gives the module
// the few WASI preview1 calls a bot makes: stdin, stdout and stderr, clocks,
// random bytes, the environment, arguments and exit.
'use strict';
var fs = require('fs');

var WASM_BASE64 = '@@WASM_BASE64@@';

var ESUCCESS = 0;
var EBADF = 8;
var EINVAL = 28;
var EIO = 29;
var ENOSYS = 52;

// WASI's numbers for the errors Node.js reports by name.
var ERRNO = {
  EACCES: 2, EAGAIN: 6, EBADF: 8, EINTR: 27, EINVAL: 28, EIO: 29,
  EISDIR: 31, ENOENT: 44, ENOMEM: 48, ENOSPC: 51, EPIPE: 64
};
function errno(e) {
  return (e && ERRNO[e.code]) || EIO;
}

var memory = null;
function view() {
  return new DataView(memory.buffer);
}
function bytes(ptr, len) {
  return Buffer.from(memory.buffer, ptr, len);
}

// A short sleep that blocks the thread (stdin may be non-blocking).
var sleeper = null;
function sleepMs(ms) {
  try {
    if (sleeper === null) {
      sleeper = new Int32Array(new SharedArrayBuffer(4));
    }
    Atomics.wait(sleeper, 0, 0, ms);
  } catch (e) {
    var end = Date.now() + ms;
    while (Date.now() < end) {
      // busy wait where SharedArrayBuffer is missing
    }
  }
}

function isRetry(e) {
  return e && (e.code === 'EAGAIN' || e.code === 'EWOULDBLOCK' || e.code === 'EINTR');
}

function readSome(fd, buf) {
  for (;;) {
    try {
      return fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if (isRetry(e)) {
        sleepMs(1);
        continue;
      }
      if (e && e.code === 'EOF') {
        return 0;
      }
      throw e;
    }
  }
}

function writeAll(fd, buf) {
  var off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (isRetry(e)) {
        sleepMs(1);
        continue;
      }
      throw e;
    }
  }
}

// The time before the bot's main: Node.js's start-up, decoding and
// compiling the module. The bot subtracts it from its first deadline.
var env = {};
Object.keys(process.env).forEach(function (k) {
  env[k] = process.env[k];
});
var args = [process.argv[1] || 'bot'].concat(process.argv.slice(2));

function encodeStrings(list) {
  return list.map(function (s) {
    return Buffer.from(s + '\0', 'utf8');
  });
}
var envStrings = null;
var argStrings = encodeStrings(args);
function environ() {
  if (envStrings === null) {
    envStrings = encodeStrings(Object.keys(env).map(function (k) {
      return k + '=' + env[k];
    }));
  }
  return envStrings;
}

function sizesGet(list, countPtr, sizePtr) {
  var size = 0;
  list.forEach(function (b) {
    size += b.length;
  });
  var v = view();
  v.setUint32(countPtr, list.length, true);
  v.setUint32(sizePtr, size, true);
  return ESUCCESS;
}
function stringsGet(list, ptrsPtr, bufPtr) {
  var v = view();
  list.forEach(function (b, i) {
    v.setUint32(ptrsPtr + 4 * i, bufPtr, true);
    b.copy(bytes(bufPtr, b.length));
    bufPtr += b.length;
  });
  return ESUCCESS;
}

var hrBase = process.hrtime();
function setU64(ptr, value) {
  // value: a non-negative number of nanoseconds (no BigInt).
  var hi = Math.floor(value / 4294967296);
  var lo = value - hi * 4294967296;
  var v = view();
  v.setUint32(ptr, lo >>> 0, true);
  v.setUint32(ptr + 4, hi >>> 0, true);
}

var crypto = null;
try {
  crypto = require('crypto');
} catch (e) {
  crypto = null;
}

function ExitSignal(code) {
  this.code = code;
}

var warned = {};
function unsupported(name) {
  return function () {
    if (!warned[name]) {
      warned[name] = true;
      fs.writeSync(2, 'bot error: WASI call ' + name + ' is not supported by this loader\n');
    }
    return ENOSYS;
  };
}

var wasi = {
  args_sizes_get: function (countPtr, sizePtr) {
    return sizesGet(argStrings, countPtr, sizePtr);
  },
  args_get: function (ptrsPtr, bufPtr) {
    return stringsGet(argStrings, ptrsPtr, bufPtr);
  },
  environ_sizes_get: function (countPtr, sizePtr) {
    return sizesGet(environ(), countPtr, sizePtr);
  },
  environ_get: function (ptrsPtr, bufPtr) {
    return stringsGet(environ(), ptrsPtr, bufPtr);
  },
  // (id, precision as two i32 halves, out): i64 parameters are split in two
  // so that Node.js versions without BigInt integration can call them.
  clock_time_get: function (id, precisionLo, precisionHi, outPtr) {
    if (id === 0) {
      setU64(outPtr, Date.now() * 1e6);
    } else if (id === 1 || id === 2 || id === 3) {
      var t = process.hrtime(hrBase);
      setU64(outPtr, (t[0] + 1) * 1e9 + t[1]);
    } else {
      return EINVAL;
    }
    return ESUCCESS;
  },
  clock_res_get: function (id, outPtr) {
    if (id < 0 || id > 3) {
      return EINVAL;
    }
    setU64(outPtr, id === 0 ? 1e6 : 1);
    return ESUCCESS;
  },
  fd_read: function (fd, iovs, iovsLen, nreadPtr) {
    if (fd !== 0) {
      return EBADF;
    }
    var v = view();
    var total = 0;
    for (var i = 0; i < iovsLen; i++) {
      var ptr = v.getUint32(iovs + 8 * i, true);
      var len = v.getUint32(iovs + 8 * i + 4, true);
      if (len === 0) {
        continue;
      }
      // One read per call: a short read is fine, and blocking for more
      // would stall keep-running mode, where a turn is one line.
      try {
        total = readSome(fd, bytes(ptr, len));
      } catch (e) {
        return errno(e);
      }
      break;
    }
    view().setUint32(nreadPtr, total, true);
    return ESUCCESS;
  },
  fd_write: function (fd, iovs, iovsLen, nwrittenPtr) {
    if (fd !== 1 && fd !== 2) {
      return EBADF;
    }
    var v = view();
    var total = 0;
    for (var i = 0; i < iovsLen; i++) {
      var ptr = v.getUint32(iovs + 8 * i, true);
      var len = v.getUint32(iovs + 8 * i + 4, true);
      try {
        writeAll(fd, bytes(ptr, len));
      } catch (e) {
        // E.g. EPIPE once the reader is gone: an error for the bot, as
        // natively (Rust ignores SIGPIPE), not a crash of the loader.
        return errno(e);
      }
      total += len;
    }
    view().setUint32(nwrittenPtr, total, true);
    return ESUCCESS;
  },
  fd_fdstat_get: function (fd, outPtr) {
    if (fd > 2) {
      return EBADF;
    }
    var v = view();
    v.setUint8(outPtr, 2); // character device
    v.setUint16(outPtr + 2, 0, true);
    setU64(outPtr + 8, 0);
    setU64(outPtr + 16, 0);
    return ESUCCESS;
  },
  fd_prestat_get: function () {
    return EBADF;
  },
  fd_close: function (fd) {
    return fd <= 2 ? ESUCCESS : EBADF;
  },
  sched_yield: function () {
    return ESUCCESS;
  },
  random_get: function (ptr, len) {
    var buf = bytes(ptr, len);
    if (crypto !== null && crypto.randomFillSync) {
      crypto.randomFillSync(buf);
    } else {
      for (var i = 0; i < len; i++) {
        buf[i] = Math.floor(Math.random() * 256);
      }
    }
    return ESUCCESS;
  },
  proc_exit: function (code) {
    throw new ExitSignal(code);
  }
};

function main() {
  var module = new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
  var imports = {};
  WebAssembly.Module.imports(module).forEach(function (imp) {
    if (imp.kind !== 'function') {
      return;
    }
    if (!imports[imp.module]) {
      imports[imp.module] = {};
    }
    var known = imp.module === 'wasi_snapshot_preview1' && wasi.hasOwnProperty(imp.name);
    imports[imp.module][imp.name] = known ? wasi[imp.name] : unsupported(imp.module + '.' + imp.name);
  });
  var instance = new WebAssembly.Instance(module, imports);
  memory = instance.exports.memory;
  env.BOTZONE_STARTUP_SECONDS = String(process.uptime());
  try {
    instance.exports._start();
  } catch (e) {
    if (e instanceof ExitSignal) {
      return e.code;
    }
    fs.writeSync(2, 'bot error: the WebAssembly module stopped: ' + (e && e.stack ? e.stack : e) + '\n');
    return 101;
  }
  return 0;
}

process.exitCode = main();
