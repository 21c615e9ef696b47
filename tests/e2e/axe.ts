import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core (Deque's accessibility rules, in node_modules beside Lighthouse) run inside the page.
let source: string | null = null;
const axeSource = () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

export interface AxeViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

/**
 * The WCAG 2.1 A and AA violations axe finds on the page once its fade-ins are done (empty when
 * clean). The script goes in through DevTools, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource());
  return page.evaluate(async () => {
    // Colours are checked as they end up: a card still fading in reads as low contrast.
    const fading = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(fading.map((a) => a.finished.catch(() => undefined)));
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }> }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
