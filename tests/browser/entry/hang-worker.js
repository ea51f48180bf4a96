// Test-only (served by the test server under __test__/, never part of dist/): the page's real
// checker worker, plus a spin forever on a message marked `testHang`, as a runaway check would.
import '../worker.js';

const handle = self.onmessage;
self.onmessage = (e) => {
  if (e.data && e.data.testHang) for (;;);
  return handle.call(self, e);
};
