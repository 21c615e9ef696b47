import { toast } from 'sonner';
import { useRecordDistribution } from './api';

const CONFIRM = 'Record a distribution now? The current standings and prizes become the winners of this period, and scoring starts afresh.';

/** For the admin Rewards tab: closes the scoring period after a confirmation. */
export function RecordDistributionButton() {
  const { busy, record } = useRecordDistribution();

  const onClick = async () => {
    if (!window.confirm(CONFIRM)) return;
    const result = await record();
    if (!result.ok) {
      toast.error('Distribution failed', { description: result.message });
    } else if (result.created) {
      toast.success('Distribution recorded', { description: 'The winners were saved and a new period has started.' });
    } else {
      toast('Distribution already recorded', { description: 'This period had already been distributed.' });
    }
  };

  return (
    <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={() => void onClick()}>
      {busy ? 'Recording...' : 'Record distribution'}
    </button>
  );
}
