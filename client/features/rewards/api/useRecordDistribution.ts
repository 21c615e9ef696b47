import { useRef, useState } from 'react';
import { memberHttp } from '#client/lib/session';
import { apiErrorFromResponse } from '#client/lib/http/api-error';
import { refreshLeaderboards } from './useLeaderboards';
import type { DistributionSummary } from '#sync/rest-api/rewards';

export type RecordResult = { ok: true; distribution: DistributionSummary; created: boolean } | { ok: false; message: string };

async function errorMessage(res: Response): Promise<string> {
  return (await apiErrorFromResponse(res)).message;
}

/**
 * Records a distribution for the period the admin is looking at. The period start is fixed on the
 * first attempt and reused by every retry until one gets an answer, so a retry after a lost
 * response returns the same distribution instead of closing the next (empty) period.
 */
export function useRecordDistribution(): { busy: boolean; record(): Promise<RecordResult> } {
  const [busy, setBusy] = useState(false);
  const pendingPeriod = useRef<number | null>(null);

  const record = async (): Promise<RecordResult> => {
    setBusy(true);
    try {
      if (pendingPeriod.current === null) {
        const standings = await refreshLeaderboards();
        if (!standings) return { ok: false, message: 'The server could not be reached. Please try again.' };
        pendingPeriod.current = standings.period_start;
      }
      let res: Response;
      try {
        res = await memberHttp.send('/api/admin/rewards/distributions', { method: 'POST', body: { period_start: pendingPeriod.current } });
      } catch {
        return { ok: false, message: 'The server could not be reached. Please try again.' };
      }
      if (res.status >= 500) return { ok: false, message: 'Something went wrong. Please try again.' };
      // Answered: success or a refusal that a retry would not change.
      pendingPeriod.current = null;
      if (!res.ok) return { ok: false, message: await errorMessage(res) };
      const body = (await res.json()) as { distribution: DistributionSummary; created: boolean };
      await refreshLeaderboards();
      return { ok: true, distribution: body.distribution, created: body.created };
    } finally {
      setBusy(false);
    }
  };

  return { busy, record };
}
