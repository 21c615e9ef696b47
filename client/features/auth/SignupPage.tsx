import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { isErrorAnswer, rememberPendingPayment, signUp } from '#client/lib/session';
import { AuthCard } from './AuthCard';
import { acceptNewPassword } from '#client/lib/session/error-message';
import { entryFeeOf, usePublicSettings } from '#client/lib/public-settings';
import { PasswordField } from '#client/ui/PasswordField';
import { TextField } from '#client/ui/TextField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { SwitchLink } from '#client/ui/CardPage';
import { SubmitButton } from '#client/ui/SubmitButton';

export function SignupPage() {
  const navigate = useNavigate();
  const fee = entryFeeOf(usePublicSettings());
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const { busy, run } = useSubmitOnce(async () => {
    if (!acceptNewPassword(password, confirm)) return;
    try {
      const result = await signUp(name.trim(), email, password);
      if (result.user.account_status === 'pending_payment') {
        rememberPendingPayment({ user_id: result.user.id, email: result.user.email, name: result.user.name });
        await navigate({ to: '/payment' });
        return;
      }
      toast.success('Account created!', { description: 'Please check your email to verify your account.' });
      await navigate({ to: '/login' });
    } catch (e) {
      const message = isErrorAnswer(e) ? e.message : 'Something went wrong';
      toast.error('Sign up Failed', { description: message });
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <AuthCard title="Create Account" subtitle="Join Vidi to share and enjoy short videos" withAd>
      {fee !== null ? (
        <p className="fee" aria-live="polite">
          Entry Fee: ₹{fee}
        </p>
      ) : null}
      <form onSubmit={onSubmit} className="form" aria-label="Create account">
        <TextField label="Full Name" name="name" autoComplete="name" required value={name} onChange={setName} />
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={setEmail} />
        <PasswordField label="Password" name="password" autoComplete="new-password" value={password} onChange={setPassword} />
        <PasswordField label="Confirm Password" name="confirm" autoComplete="new-password" value={confirm} onChange={setConfirm} />
        <SubmitButton busy={busy} busyLabel="Creating account...">
          {fee !== null ? 'Proceed to Payment' : 'Create Account'}
        </SubmitButton>
      </form>
      <SwitchLink prompt="Already have an account?" to="/login">
        Sign in
      </SwitchLink>
    </AuthCard>
  );
}
