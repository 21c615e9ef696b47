import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type Agent } from 'node:https';
import webpush from 'web-push';
import type { PushTarget } from './endpoint-check';
import type { LookupFunction } from './special-addresses';

// One push message on the wire. web-push builds it (aes128gcm encryption, TTL, urgency) but does not
// send it: its sender parses the endpoint again with the legacy URL parser and connects wherever that
// says. Here the request goes to the host and port of the check's one parse (endpoint-check.ts).

export interface PushMessage {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  body: string;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
  vapid: { subject: string; publicKey: string; privateKey: string };
}

export interface Connection {
  /** The https agent (connection reuse, TLS trust); undefined for http. */
  agent: Agent | undefined;
  /** The name lookup the socket uses; undefined is dns.lookup. Addresses in the URL skip it: the check saw those. */
  lookup: LookupFunction | undefined;
  /** Ends the request wherever it is (lookup, connect, TLS, answer). */
  signal: AbortSignal;
}

export interface PushAnswer {
  status: number;
  body: string;
}

/** A push service's answer is a status and a short text; more than this of it is not read. */
const ANSWER_LIMIT = 4096;

/** The request web-push would send, with a VAPID JWT whose audience is the parsed origin. */
function requestOf(target: PushTarget, m: PushMessage): { method: string; headers: Record<string, string | number>; body: Buffer | null } {
  const details = webpush.generateRequestDetails(m.subscription, m.body, { TTL: m.ttlSeconds, urgency: m.urgency, contentEncoding: 'aes128gcm' });
  const vapid = webpush.getVapidHeaders(target.origin, m.vapid.subject, m.vapid.publicKey, m.vapid.privateKey, 'aes128gcm');
  const headers = { ...(details.headers as Record<string, string | number>), Authorization: vapid.Authorization };
  return { method: details.method, headers, body: (details.body as Buffer | null) ?? null };
}

/** Sends one message to exactly `target`; answers the push service's status (any status: the caller decides). */
export function postPush(target: PushTarget, m: PushMessage, conn: Connection): Promise<PushAnswer> {
  const { method, headers, body } = requestOf(target, m);
  const send = target.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((ok, fail) => {
    const req = send(
      {
        host: target.host,
        port: target.port,
        path: target.path,
        method,
        headers,
        signal: conn.signal,
        ...(target.protocol === 'https:' && conn.agent ? { agent: conn.agent } : {}),
        ...(conn.lookup ? { lookup: conn.lookup } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ANSWER_LIMIT) text += chunk.slice(0, ANSWER_LIMIT - text.length);
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(body ?? undefined);
  });
}
