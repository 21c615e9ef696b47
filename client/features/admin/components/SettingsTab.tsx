import { useId, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useAdminActions, useAdminSettings, type AdminSettings, type AdminSettingsUpdate, type PaymentProvider } from '../api';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { Spinner } from '#client/ui/Spinner';
import { messageOf } from '#client/lib/http/api-error';
import { announceSaved, LoadError } from './admin-parts';
import { useFormFrom } from './useFormFrom';

interface Form {
  feeEnabled: boolean;
  feeAmount: string;
  provider: PaymentProvider;
  keyId: string;
  keySecret: string;
  clearKeySecret: boolean;
  webhookSecret: string;
  clearWebhookSecret: boolean;
  adClient: string;
  adSlot: string;
  viewerCap: string;
  uploadMib: string;
}

const toForm = (s: AdminSettings): Form => ({
  feeEnabled: s.entry_fee.enabled,
  feeAmount: String(s.entry_fee.amount_rupees),
  provider: s.payment.provider,
  keyId: s.payment.razorpay_key_id,
  keySecret: '',
  clearKeySecret: false,
  webhookSecret: '',
  clearWebhookSecret: false,
  adClient: s.ads.client_id,
  adSlot: s.ads.slot_id,
  viewerCap: String(s.limits.viewer_daily_points_cap),
  uploadMib: String(s.limits.upload_daily_mib),
});

/** A whole number within [min, max], or null (the server checks the same bounds). */
function parseLimit(text: string, max: number): number | null {
  const t = text.trim();
  if (!/^\d{1,7}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= max ? n : null;
}

/** A secret is never shown: only whether it is set. Typing replaces it; "Clear" removes it; empty keeps it. */
function SecretField({
  label,
  isSet,
  value,
  onChange,
  clear,
  onClear,
}: {
  label: string;
  isSet: boolean;
  value: string;
  onChange(v: string): void;
  clear: boolean;
  onClear(v: boolean): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} <span className={`secret-state ${isSet ? 'set' : 'unset'}`}>({isSet ? 'set' : 'not set'})</span>
      </label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        value={value}
        disabled={clear}
        onChange={(e) => onChange(e.target.value)}
        placeholder={isSet ? 'Leave empty to keep the current value' : 'Not set'}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        Write-only: the saved value is never shown.
      </p>
      {isSet ? (
        <label className="checkbox">
          <input type="checkbox" checked={clear} onChange={(e) => onClear(e.target.checked)} /> Clear {label.toLowerCase()}
        </label>
      ) : null}
    </div>
  );
}

export function SettingsTab() {
  const settings = useAdminSettings();
  const actions = useAdminActions();
  const [form, setForm] = useFormFrom(settings.data, toForm);

  const { busy, run } = useSubmitOnce(async () => {
    if (!form) return;
    const amountText = form.feeAmount.trim();
    // As in the product: the fee is parsed as a whole number of rupees, default 0 (docs/admin-payments.md).
    const amount = amountText === '' ? 0 : /^\d{1,8}$/.test(amountText) ? Number(amountText) : null;
    if (amount === null) {
      toast.error('Update Failed', { description: 'The entry fee must be a whole number of rupees, 0 or more.' });
      return;
    }
    const viewerCap = parseLimit(form.viewerCap, 100_000);
    const uploadMib = parseLimit(form.uploadMib, 1_048_576);
    if (viewerCap === null || uploadMib === null) {
      toast.error('Update Failed', {
        description:
          viewerCap === null
            ? 'The viewer points cap must be a whole number from 1 to 100000.'
            : 'The upload limit must be a whole number of MiB from 1 to 1048576.',
      });
      return;
    }
    const secret = (typed: string, clear: boolean) => (clear ? { value: null } : typed.trim() ? { value: typed.trim() } : null);
    const keySecret = secret(form.keySecret, form.clearKeySecret);
    const webhookSecret = secret(form.webhookSecret, form.clearWebhookSecret);
    const body: AdminSettingsUpdate = {
      entry_fee: { enabled: form.feeEnabled, amount_rupees: amount },
      payment: {
        provider: form.provider,
        razorpay_key_id: form.keyId.trim(),
        ...(keySecret ? { razorpay_key_secret: keySecret.value } : {}),
        ...(webhookSecret ? { razorpay_webhook_secret: webhookSecret.value } : {}),
      },
      ads: { client_id: form.adClient.trim(), slot_id: form.adSlot.trim() },
      limits: { viewer_daily_points_cap: viewerCap, upload_daily_mib: uploadMib },
    };
    try {
      const saved = await actions.saveSettings(body);
      setForm(toForm(saved));
      announceSaved();
    } catch (e) {
      toast.error('Update Failed', { description: messageOf(e) });
    }
  });

  if (settings.error && !form) return <LoadError message={settings.error} />;
  if (!form || !settings.data) return <Spinner label="Loading settings" />;

  const payment = settings.data.payment;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <section aria-label="Settings" className="admin-section">
      <form onSubmit={onSubmit} className="form admin-form" aria-label="Admin settings">
        <fieldset>
          <legend>Entry fee</legend>
          <label className="checkbox">
            <input type="checkbox" checked={form.feeEnabled} onChange={(e) => setForm({ ...form, feeEnabled: e.target.checked })} /> Entry fee enabled
          </label>
          <div className="field">
            <label htmlFor="entry-fee-amount">Entry fee amount (₹)</label>
            <input
              id="entry-fee-amount"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={form.feeAmount}
              onChange={(e) => setForm({ ...form, feeAmount: e.target.value })}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Payment provider</legend>
          <div className="field">
            <label htmlFor="payment-provider">Provider</label>
            <select id="payment-provider" value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value as PaymentProvider })}>
              <option value="razorpay">Razorpay</option>
              <option value="sandbox">Sandbox (test mode, no real money)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="razorpay-key-id">Razorpay key id</label>
            <input
              id="razorpay-key-id"
              type="text"
              autoComplete="off"
              value={form.keyId}
              onChange={(e) => setForm({ ...form, keyId: e.target.value })}
              placeholder="rzp_live_..."
            />
          </div>
          <SecretField
            label="Razorpay key secret"
            isSet={payment.razorpay_key_secret_set}
            value={form.keySecret}
            onChange={(v) => setForm({ ...form, keySecret: v })}
            clear={form.clearKeySecret}
            onClear={(v) => setForm({ ...form, clearKeySecret: v })}
          />
          <SecretField
            label="Razorpay webhook secret"
            isSet={payment.razorpay_webhook_secret_set}
            value={form.webhookSecret}
            onChange={(v) => setForm({ ...form, webhookSecret: v })}
            clear={form.clearWebhookSecret}
            onClear={(v) => setForm({ ...form, clearWebhookSecret: v })}
          />
          <p className="hint">Webhook URL: {`${window.location.origin}/api/payments/webhook/razorpay`}</p>
        </fieldset>
        <fieldset>
          <legend>Ads</legend>
          <div className="field">
            <label htmlFor="ad-client-id">Ad client id</label>
            <input id="ad-client-id" type="text" autoComplete="off" value={form.adClient} onChange={(e) => setForm({ ...form, adClient: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="ad-slot-id">Ad slot id</label>
            <input id="ad-slot-id" type="text" autoComplete="off" value={form.adSlot} onChange={(e) => setForm({ ...form, adSlot: e.target.value })} />
          </div>
        </fieldset>
        <fieldset>
          <legend>Limits</legend>
          <div className="field">
            <label htmlFor="viewer-daily-points-cap">Viewer points per member per day</label>
            <input
              id="viewer-daily-points-cap"
              type="number"
              inputMode="numeric"
              min={1}
              max={100000}
              step={1}
              value={form.viewerCap}
              onChange={(e) => setForm({ ...form, viewerCap: e.target.value })}
              aria-describedby="viewer-daily-points-cap-hint"
            />
            <p id="viewer-daily-points-cap-hint" className="hint">
              Best Viewers points one member can earn in a day (UTC). A change applies to the whole current period.
            </p>
          </div>
          <div className="field">
            <label htmlFor="upload-daily-mib">Upload volume per member per day (MiB)</label>
            <input
              id="upload-daily-mib"
              type="number"
              inputMode="numeric"
              min={1}
              max={1048576}
              step={1}
              value={form.uploadMib}
              onChange={(e) => setForm({ ...form, uploadMib: e.target.value })}
            />
          </div>
        </fieldset>
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Saving...' : 'Save Settings'}
        </button>
      </form>
    </section>
  );
}
