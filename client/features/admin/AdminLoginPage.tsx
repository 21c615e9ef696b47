import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { isErrorAnswer, signIn, useSession } from '#client/lib/session';
import { PasswordField } from '#client/ui/PasswordField';
import { TextField } from '#client/ui/TextField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { ShieldIcon } from '#client/ui/icons';
import { CardPage } from '#client/ui/CardPage';
import { SubmitButton } from '#client/ui/SubmitButton';

/** /admin/login (docs/admin-payments.md, "Screens"): signs in, then lets only administrators through. */
export function AdminLoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const { busy, run } = useSubmitOnce(async () => {
    try {
      const user = await signIn(email, password);
      if (!user.is_admin) {
        toast.error('Access Denied', { description: 'You are not an administrator.' });
        return;
      }
      toast.success('Admin Access Granted', { description: 'Welcome, administrator!' });
      await navigate({ to: '/admin', replace: true });
    } catch (e) {
      const message = isErrorAnswer(e) ? e.message : 'The server could not be reached. Check your connection and try again.';
      toast.error('Sign in Failed', { description: message });
    }
  });

  // An administrator who is already signed in goes straight to the dashboard.
  if (session.status === 'signedIn' && session.user.is_admin && !busy) return <Navigate to="/admin" replace />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <CardPage
      title={
        <>
          <ShieldIcon /> Admin Login
        </>
      }
      subtitle="Sign in with an administrator account"
    >
      <form onSubmit={onSubmit} className="form" aria-label="Admin login">
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={setEmail} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} />
        <SubmitButton busy={busy} busyLabel="Authenticating...">
          Login
        </SubmitButton>
      </form>
    </CardPage>
  );
}
