import { createRoute } from '@hono/zod-openapi';
import { lockScoringExclusive } from '#db/locks';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { writeTx } from '../changes/write-tx';
import { distributionDateSetting } from '../settings/definitions';
import { readPrizes, writePrizes } from '../settings/prizes';
import { readSetting, writeSetting } from '../settings/store';
import { adminOnly } from './guard';
import { recordAudit } from './audit';
import { readAdminSettings, saveAdminSettings } from './admin-settings';
import { applyCapChange } from '../rewards/viewer-days';
import { AdminSettings, AdminSettingsUpdate, RewardsSettings } from '#sync/rest-api/admin';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const getRewards = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/rewards',
  summary: 'Prize amounts (20 best users, 3 best viewers) and the next distribution date',
  responses: { 200: { description: 'The reward settings.', content: json(RewardsSettings) }, ...errorResponses(401, 403) },
});

const putRewards = createRoute({
  ...adminOnly,
  method: 'put',
  path: '/rewards',
  summary: 'Replace the prize amounts and the distribution date',
  request: { body: { required: true, content: json(RewardsSettings) } },
  responses: { 200: { description: 'Saved.', content: json(RewardsSettings) }, ...errorResponses(400, 401, 403) },
});

const getSettings = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/settings',
  summary: 'Entry fee, payment provider, ad settings and limits (secrets only as set / not set)',
  responses: { 200: { description: 'The settings.', content: json(AdminSettings) }, ...errorResponses(401, 403) },
});

const putSettings = createRoute({
  ...adminOnly,
  method: 'put',
  path: '/settings',
  summary: 'Save the Settings tab in one go',
  description:
    'A secret left out stays unchanged; null clears it; limits left out stay unchanged. The fee cannot be enabled while the chosen provider lacks its keys. ' +
    'A new viewer points cap applies to the whole current period at once.',
  request: { body: { required: true, content: json(AdminSettingsUpdate) } },
  responses: { 200: { description: 'Saved.', content: json(AdminSettings) }, ...errorResponses(400, 401, 403) },
});

export function adminSettingsRouter() {
  return createRouter()
    .openapi(getRewards, async (c) => {
      const db = c.var.deps.db;
      const [prizes, date] = await Promise.all([readPrizes(db), readSetting(db, distributionDateSetting)]);
      return c.json({ best_user_prizes: prizes.best_user, best_viewer_prizes: prizes.best_viewer, distribution_date: date }, 200);
    })
    .openapi(putRewards, async (c) => {
      const body = c.req.valid('json');
      const { deps, user } = c.var;
      await writeTx(deps, async (trx, changes) => {
        await writePrizes(trx, { best_user: body.best_user_prizes, best_viewer: body.best_viewer_prizes });
        await writeSetting(trx, distributionDateSetting, body.distribution_date, changes.now);
        await recordAudit(trx, { actorId: user.id, action: 'rewards.update', target: 'rewards', details: body }, changes.now);
        // Leaderboards carry each rank's prize, and the public settings the date.
        changes.leaderboard().settings();
      });
      return c.json(body, 200);
    })
    .openapi(getSettings, async (c) => c.json(await readAdminSettings(c.var.deps.db, c.var.deps.secrets), 200))
    .openapi(putSettings, async (c) => {
      const body = c.req.valid('json');
      const { deps, user } = c.var;
      const view = await writeTx(deps, async (trx, changes) => {
        const now = changes.now;
        // A new cap rewrites every member's viewer points: no push may add one under the old cap meanwhile.
        if (body.limits) await lockScoringExclusive(trx);
        const { secretsChanged, capChanged } = await saveAdminSettings(trx, deps.secrets, body, now);
        const view = await readAdminSettings(trx, deps.secrets);
        // The audit keeps what changed, but never a secret: only whether each is set and whether it changed.
        await recordAudit(trx, { actorId: user.id, action: 'settings.update', target: 'settings', details: { ...view, secrets_changed: secretsChanged } }, now);
        changes.settings();
        if (capChanged) {
          await applyCapChange(trx, view.limits.viewer_daily_points_cap);
          changes.leaderboard();
        }
        return view;
      });
      return c.json(view, 200);
    });
}
