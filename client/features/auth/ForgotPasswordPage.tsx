import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { requestPasswordReset } from '#client/lib/session';
import { AuthCard } from './AuthCard';
import { authErrorMessage } from '#client/lib/session/error-message';
import { TextField } from '#client/ui/TextField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { SubmitButton } from '#client/ui/SubmitButton';
import { SwitchLink } from '#client/ui/CardPage';

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const { busy, run } = useSubmitOnce(async () => {
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (e) {
      toast.error('Something went wrong', { description: authErrorMessage(e) });
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  if (sentTo !== null) {
    return (
      <AuthCard title="Check your email" subtitle="We are sending you a link to reset your password">
        <p className="notice" role="status">
          If an account uses {sentTo}, we have sent it a link to reset the password. The link works once, for 1 hour.
        </p>
        <SwitchLink to="/login">Back to Sign In</SwitchLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot Password" subtitle="Enter your email and we will send you a link to reset your password">
      <form onSubmit={onSubmit} className="form" aria-label="Forgot password">
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={setEmail} />
        <SubmitButton busy={busy} busyLabel="Sending...">
          Send Reset Link
        </SubmitButton>
      </form>
      <SwitchLink prompt="Remembered it?" to="/login">
        Sign in
      </SwitchLink>
    </AuthCard>
  );
}
