import { freeHandle } from '../people/free-handle';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '#db/errors';
import type { SignupBody, SignupResponse } from '#sync/rest-api/auth';
import type { AppDeps } from '../context';
import { signupAttemptMail } from '../mail/account-mails';
import { feeApplies, readEntryFee } from '../settings/entry-fee';
import { createVerificationToken, sendVerificationMail } from './email-verification';
import { hashPassword } from './password';
import { expireUnverifiedAccounts } from './unverified-expiry';

type AccountStatus = SignupResponse['user']['account_status'];

/**
 * The answer to a sign-up for a taken address: shaped exactly like a fresh account's, with an id
 * that names no account (a decoy), so the caller cannot tell. The owner learns of it by mail.
 */
async function answerTaken(deps: AppDeps, body: SignupBody, status: AccountStatus): Promise<SignupResponse> {
  const owner = await deps.db.selectFrom('profiles').select('name').where('email', '=', body.email).executeTakeFirst();
  const base = deps.config.publicUrl;
  let sent = true;
  try {
    await deps.mailer.send(
      signupAttemptMail({ to: body.email, name: owner?.name ?? 'there', loginLink: `${base}/login`, resetLink: `${base}/forgot-password` }),
    );
  } catch (err) {
    deps.log.error(`sign-up attempt mail to ${body.email} failed`, err);
    sent = false;
  }
  return { user: { id: randomUUID(), email: body.email, name: body.name, account_status: status }, verification_sent: sent };
}

/**
 * Creates the account (unverified; 'pending_payment' while an entry fee applies), its credentials
 * and a verification token in one transaction, then mails the link. A taken address gets the same
 * answer (see answerTaken) after the same work; an unverified account older than 72 h gives its
 * address up to the new sign-up.
 */
export async function signUp(deps: AppDeps, body: SignupBody): Promise<SignupResponse> {
  // Hashed first, for taken addresses too (same work, same time); ~300 ms on the thread pool must not hold the database.
  const passwordHash = await hashPassword(body.password, deps.passwordParams);
  const id = randomUUID();
  let created: { token: string; status: AccountStatus } | { taken: AccountStatus } | undefined;
  // A handle is picked from the name; two sign-ups with the same name can race for it: try again.
  for (let attempt = 0; !created && attempt < 3; attempt++) created = await createAccount(deps, body, id, passwordHash);
  if (!created) throw new Error('no free handle after three tries');
  if ('taken' in created) return answerTaken(deps, body, created.taken);
  const sent = await sendVerificationMail(deps, { email: body.email, name: body.name }, created.token);
  return { user: { id, email: body.email, name: body.name, account_status: created.status }, verification_sent: sent };
}

/** The account's rows, or `taken` for an address in use; undefined when another sign-up took the handle meanwhile. */
async function createAccount(
  deps: AppDeps,
  body: SignupBody,
  id: string,
  passwordHash: string,
): Promise<{ token: string; status: AccountStatus } | { taken: AccountStatus } | undefined> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const now = deps.now();
      const accountStatus: AccountStatus = feeApplies(await readEntryFee(trx)) ? 'pending_payment' : 'active';
      await expireUnverifiedAccounts(trx, now, body.email);
      const existing = await trx.selectFrom('profiles').select('id').where('email', '=', body.email).executeTakeFirst();
      if (existing) return { taken: accountStatus };
      await trx
        .insertInto('profiles')
        .values({
          id,
          email: body.email,
          name: body.name,
          handle: await freeHandle(trx, body.name),
          is_admin: 0,
          is_active: 1,
          account_status: accountStatus,
          email_verified_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx.insertInto('credentials').values({ user_id: id, password_hash: passwordHash, updated_at: now }).execute();
      return { token: await createVerificationToken(trx, id, now), status: accountStatus };
    });
  } catch (err) {
    // Two sign-ups with one address raced: the unique index decides, and the loser is told as a taken address would be.
    if (!isUniqueViolation(err)) throw err;
    const emailTaken = await deps.db.selectFrom('profiles').select('id').where('email', '=', body.email).executeTakeFirst();
    if (!emailTaken) return undefined;
    return { taken: feeApplies(await readEntryFee(deps.db)) ? 'pending_payment' : 'active' };
  }
}
