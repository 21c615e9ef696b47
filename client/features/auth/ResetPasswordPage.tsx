import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { isErrorAnswer, currentUser, resetPassword, signOut } from '#client/lib/session';
import { AuthCard } from './AuthCard';
import { authErrorMessage, acceptNewPassword } from '#client/lib/session/error-message';
import { PasswordField } from '#client/ui/PasswordField';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { SubmitButton } from '#client/ui/SubmitButton';
import { SwitchLink } from '#client/ui/CardPage';
import { forgetResetToken, resetToken } from '#client/lib/reset-token';

function InvalidLink() {
  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account">
      <p className="notice error" role="alert">
        This reset link is invalid or has expired.
      </p>
      <SwitchLink to="/forgot-password">Send a new link</SwitchLink>
    </AuthCard>
  );
}

/**
 * /reset-password?token=…: the page the mailed link opens (its token already moved out of the address).
 * Success ends every session, so it leads to /login. No ad slot: a page with a secret runs no third-party script.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [token] = useState(resetToken);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [linkDead, setLinkDead] = useState(false);
  // Leaving for another screen of this tab (Back to Sign In, where the ad script runs): the token goes too.
  useEffect(() => forgetResetToken, []);

  const { busy, run } = useSubmitOnce(async () => {
    if (!acceptNewPassword(password, confirm)) return;
    try {
      await resetPassword(token ?? '', password);
      // The server ended every session of the account, this device's included.
      if (currentUser()) await signOut();
      forgetResetToken();
      toast.success('Password updated', { description: 'You can now sign in with your new password.' });
      await navigate({ to: '/login', replace: true });
    } catch (e) {
      if (isErrorAnswer(e) && e.code === 'invalid_reset_token') {
        forgetResetToken();
        setLinkDead(true);
      }
      toast.error('Reset Failed', { description: authErrorMessage(e) });
    }
  });

  if (!token || linkDead) return <InvalidLink />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account">
      <form onSubmit={onSubmit} className="form" aria-label="Reset password">
        <PasswordField label="New Password" name="password" autoComplete="new-password" value={password} onChange={setPassword} />
        <PasswordField label="Confirm Password" name="confirm" autoComplete="new-password" value={confirm} onChange={setConfirm} />
        <SubmitButton busy={busy} busyLabel="Updating...">
          Update Password
        </SubmitButton>
      </form>
      <SwitchLink to="/login">Back to Sign In</SwitchLink>
    </AuthCard>
  );
}
