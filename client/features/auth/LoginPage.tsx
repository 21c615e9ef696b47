import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { toast } from 'sonner';
import { isErrorAnswer, rememberPendingPayment, resendVerification, signIn } from '#client/lib/session';
import { AuthCard } from './AuthCard';
import { PasswordField } from '#client/ui/PasswordField';
import { TextField } from '#client/ui/TextField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import './auth.css';
import { SubmitButton } from '#client/ui/SubmitButton';
import { SwitchLink } from '#client/ui/CardPage';

export function LoginPage() {
  const navigate = useNavigate();
  const { verified } = useSearch({ strict: false }) as { verified?: string | number };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [unverified, setUnverified] = useState(false);

  const { busy, run } = useSubmitOnce(async () => {
    try {
      await signIn(email, password);
      await navigate({ to: '/home', replace: true });
    } catch (e) {
      if (isErrorAnswer(e) && e.code === 'payment_required' && e.details.userId) {
        rememberPendingPayment({ user_id: e.details.userId, email: email.trim().toLowerCase(), name: '' });
        await navigate({ to: '/payment' });
        return;
      }
      setUnverified(isErrorAnswer(e) && e.code === 'email_not_verified');
      const message = isErrorAnswer(e) ? e.message : 'The server could not be reached. Check your connection and try again.';
      toast.error('Sign in Failed', { description: message });
    }
  });

  const resend = useSubmitOnce(async () => {
    try {
      toast.success('Verification email sent', { description: await resendVerification(email) });
    } catch (e) {
      toast.error('Something went wrong', { description: isErrorAnswer(e) ? e.message : 'Please try again.' });
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <AuthCard title="Sign In" subtitle="Welcome back! Sign in to your account" withAd>
      {String(verified) === '1' ? (
        <p className="notice" role="status">
          Your email is verified. You can sign in now.
        </p>
      ) : null}
      {String(verified) === '0' ? (
        <p className="notice error" role="status">
          That verification link is invalid or has expired.
        </p>
      ) : null}
      <form onSubmit={onSubmit} className="form" aria-label="Sign in">
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={setEmail} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} />
        <p className="forgot-link">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
        <SubmitButton busy={busy} busyLabel="Signing in...">
          Sign In
        </SubmitButton>
      </form>
      {unverified ? (
        <button type="button" className="button block resend" onClick={() => void resend.run()} disabled={resend.busy}>
          {resend.busy ? 'Sending...' : 'Resend verification email'}
        </button>
      ) : null}
      <SwitchLink prompt="Don't have an account?" to="/signup">
        Sign up
      </SwitchLink>
    </AuthCard>
  );
}
