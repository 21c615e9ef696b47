/**
 * The balancer's configuration: the same text `npm run cluster` writes and docs/deploy.md shows.
 * Round robin over the web instances (nginx's default), with what the app needs of a proxy:
 * - /api/sync/events is a server-sent event stream: no buffering, and a read timeout well past
 *   the server's 25 s heartbeat so an idle stream is not cut.
 * - /files is tus: PATCH bodies of any size streamed to the instance as they arrive (no
 *   buffering to disk, no size cap: the server enforces its own limits).
 * - HTTP/1.1 with keepalive to the instances; X-Forwarded-For appended, which TRUST_PROXY_HOPS=1
 *   makes the instances read for per-IP limits.
 * - A refused or reset connection (a dead instance) sends an idempotent request to the next one;
 *   nginx never retries a POST or PATCH by itself (non_idempotent is not set), which tus and the
 *   sync push handle through their own resume and replay.
 */
export interface NginxConfigOptions {
  /** Address:port the balancer listens on, e.g. 127.0.0.1:8080 or 443 ssl. */
  listen: string;
  /** host:port of each web instance. */
  upstreams: string[];
  /** Folder for the pid file, logs and temp files; omitted in the deployment guide's version. */
  prefix?: string;
  /** The `user` directive: who nginx's workers run as when it starts as root. */
  user?: string;
}

export function nginxConfig(o: NginxConfigOptions): string {
  const p = o.prefix;
  // Never the distribution's /var/lib/nginx or /run: a local balancer lives in its own folder.
  const top = [...(o.user ? [`user ${o.user};`] : []), ...(p ? [`pid ${p}/nginx.pid;`, `error_log ${p}/error.log warn;`] : [])];
  const temps = p ? ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${p}/tmp/${t};`) : [];
  const lines = (xs: string[]) => (xs.length ? `${xs.join('\n')}\n` : '');
  return `${lines(top)}worker_processes auto;
events { worker_connections 4096; }

http {
${lines(temps)}  # Which instance answered each request, and how long it took.
  log_format upstream '$remote_addr [$time_local] "$request" $status $body_bytes_sent '
                      'upstream=$upstream_addr upstream_status=$upstream_status rt=$request_time';
  access_log ${p ? `${p}/access.log` : '/var/log/nginx/vidi-access.log'} upstream;

  upstream vidi {
${o.upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join('\n')}
    # Shared by nginx's workers: one round-robin turn and one view of which instance is down.
    zone vidi 64k;
    keepalive 32;
  }

  server {
    listen ${o.listen};
    # The app's own limits are lower (256 KiB JSON, 512 KiB posters) and answer with a JSON 413.
    client_max_body_size 10m;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    # Only a dead or silent instance: a 5xx the app chose (e.g. 503 when busy) reaches the client.
    proxy_next_upstream error timeout;
    proxy_next_upstream_tries 2;
    proxy_connect_timeout 2s;
    proxy_read_timeout 120s;
    proxy_send_timeout 120s;

    location / {
      proxy_pass http://vidi;
    }

    location = /api/sync/events {
      proxy_pass http://vidi;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }

    location /files {
      proxy_pass http://vidi;
      client_max_body_size 0;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_read_timeout 600s;
      proxy_send_timeout 600s;
    }
  }
}
`;
}
