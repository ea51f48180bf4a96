// How the benchmarks time a cold load. The page has no measurement hooks: the time of its first
// report is taken from outside (the `data-renders` counter it keeps on <body>), as is the time of
// its first report that does not wait for the model catalog (no `data-pending`: the first report
// of a text naming a model is shown before the catalog has loaded).

/** Record, in every page of `context`, when its first report and first complete report appear. */
export async function watchFirstRender(context) {
  await context.addInitScript(() => {
    window.__benchFirstRenderMs = null;
    window.__benchFirstPaintMs = null;
    window.__benchSettledMs = null;
    new MutationObserver((_, observer) => {
      if (!document.body || !document.body.dataset.renders) return;
      if (window.__benchFirstRenderMs === null) {
        window.__benchFirstRenderMs = performance.now();
        // The report on screen: a task queued from the next frame's callback runs once that
        // frame's style, layout and paint are done (layout the page left for the frame counts here).
        requestAnimationFrame(() => setTimeout(() => (window.__benchFirstPaintMs = performance.now())));
      }
      if (!document.body.dataset.pending) {
        window.__benchSettledMs = performance.now();
        observer.disconnect();
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-renders', 'data-pending'] });
  });
}

/** For `page.waitForFunction`: the first complete report is up, and the first report painted. */
export const settledRender = () => window.__benchSettledMs !== null && window.__benchFirstPaintMs !== null;

/**
 * Load `url` in a fresh context of `browser`; ms from navigation to { first, painted, settled }
 * report. `onPage(page)` runs before the navigation (e.g. to record the page's requests).
 */
export async function coldLoad(browser, url, { onPage = () => {} } = {}) {
  const context = await browser.newContext();
  try {
    await watchFirstRender(context);
    const page = await context.newPage();
    onPage(page);
    await page.goto(url);
    await page.waitForFunction(settledRender, null, { timeout: 30000 });
    return await page.evaluate(() => ({ first: window.__benchFirstRenderMs, painted: window.__benchFirstPaintMs, settled: window.__benchSettledMs }));
  } finally {
    await context.close();
  }
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
