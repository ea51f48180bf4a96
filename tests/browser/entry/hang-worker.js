// Test-only (served by the test server under __test__/, never part of dist/): the page's real
// checker worker, plus a spin forever on a message marked `testHang`, as a runaway check would
// (once the checker has loaded, as a check only runs then), and a real stack overflow inside the
// check of a message marked `testOverflow`, as a runaway recursion would.
import '../worker.js';

let loaded;
const ready = new Promise((resolve) => (loaded = resolve));
const post = self.postMessage.bind(self);
self.postMessage = (m, ...rest) => {
  post(m, ...rest);
  if (m && m.ready) loaded();
};

const handle = self.onmessage;
self.onmessage = (e) => {
  if (e.data && e.data.testHang) {
    ready.then(() => {
      for (;;);
    });
    return;
  }
  if (e.data && e.data.testOverflow) {
    const parse = JSON.parse;
    JSON.parse = function overflow() {
      JSON.parse = parse;
      const deeper = (n) => deeper(n + 1) + 1;
      return deeper(0);
    };
  }
  return handle.call(self, e);
};
