import { useState } from 'react';
import { Link, Navigate, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { CardPage, SwitchLink } from '#client/ui/CardPage';
import { ApiError, payEntryFee, readPendingPayment, usePaymentSummary } from './api/usePayment';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { Spinner } from '#client/ui/Spinner';
import { ShieldIcon } from '#client/ui/icons';
import './payment.css';

const PERKS = ['Upload unlimited short videos', 'Connect with millions of creators', 'Like, comment and share videos'];
const NOT_CONFIGURED = 'Payments are not set up on this server yet. Please try again later.';

/** /payment (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md): the entry fee of an account created as unpaid. */
export function PaymentPage() {
  const [account] = useState(readPendingPayment);
  if (!account) return <Navigate to="/signup" replace />;
  return <PaymentScreen account={account} />;
}

function PaymentScreen({ account }: { account: { user_id: string; email: string; name: string } }) {
  const navigate = useNavigate();
  const summary = usePaymentSummary(account);

  const { busy, run: pay } = useSubmitOnce(async () => {
    try {
      const outcome = await payEntryFee();
      if (outcome === 'cancelled') return;
      toast.success('Account created!', { description: 'Please check your email to verify your account.' });
      await navigate({ to: '/login', replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'payment_not_configured') {
        toast.error('Payment not configured', { description: NOT_CONFIGURED });
      } else if (e instanceof ApiError && e.code === 'already_paid') {
        toast.success('Account created!', { description: 'Please check your email to verify your account.' });
        await navigate({ to: '/login', replace: true });
      } else if (e instanceof ApiError && e.code === 'account_not_found') {
        toast.error('Account creation failed', { description: e.message });
        await navigate({ to: '/signup', replace: true });
      } else {
        toast.error('Payment failed', { description: 'Something went wrong. Please try again.' });
      }
    }
  });

  if (summary.status === 'loading') return <Spinner fullScreen label="Loading the order summary" />;
  if (summary.status === 'error') {
    const e = summary.error;
    if (e.code === 'already_paid') return <Navigate to="/login" replace />;
    return (
      <CardPage title="Complete Payment">
        <p className="notice error" role="alert">
          {e.code === 'account_not_found' ? e.message : 'Something went wrong. Please try again.'}
        </p>
        <Link to="/signup" className="button block">
          Back to Sign Up
        </Link>
      </CardPage>
    );
  }

  const s = summary.summary;
  const sandbox = s.provider === 'sandbox';
  return (
    <CardPage title="Complete Payment" subtitle="One-time entry fee to activate your account" cardClass="payment-card">
      {sandbox ? (
        <p className="notice test-mode" role="note">
          <strong>Test mode:</strong> this is a sandbox payment. No real money is charged.
        </p>
      ) : null}
      {!s.configured ? (
        <p className="notice error" role="status">
          Payment not configured
        </p>
      ) : null}
      <section aria-labelledby="order-summary" className="order-summary">
        <h2 id="order-summary">Order Summary</h2>
        <dl>
          <div>
            <dt>Entry Fee</dt>
            <dd className="amount">₹{s.amount_rupees}</dd>
          </div>
          <div>
            <dt>Name</dt>
            <dd>{s.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{s.email}</dd>
          </div>
        </dl>
      </section>
      <button type="button" className="button primary block" onClick={() => void pay()} disabled={busy} aria-busy={busy}>
        {busy ? 'Processing...' : s.fee_applies ? `Pay ₹${s.amount_rupees}` : 'Activate Account'}
      </button>
      <p className="secured">
        <ShieldIcon /> Secured by {sandbox ? 'Sandbox (test mode)' : 'Razorpay'}
      </p>
      <section aria-labelledby="perks-title" className="perks">
        <h2 id="perks-title">What you get</h2>
        <ul>
          {PERKS.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </section>
      <SwitchLink to="/signup">Back to Sign Up</SwitchLink>
    </CardPage>
  );
}
