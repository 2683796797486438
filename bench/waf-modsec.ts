// ModSecurity v3 side by side for bench/waf.ts: Debian's nginx + libnginx-mod-http-modsecurity
// with the same Debian CRS (crs-setup.conf, then the paranoia level and thresholds as loadCrs sets
// them), on loopback only. nginx runs as one foreground process (master_process off) with two
// servers proxying to a backend in this process: one with ModSecurity on, one with it off. The
// CPU time per request of that process (utime + stime from /proc/<pid>/stat), minus the
// ModSecurity-off server's figure, is ModSecurity's own cost per request.
//
// Optional: without nginx, the module or the CRS, `modsecAvailability` says what is missing.

import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WafRequest } from '../packages/seclang/src/index.ts';

const NGINX = '/usr/sbin/nginx';
const MODULE = '/usr/lib/nginx/modules/ngx_http_modsecurity_module.so';
const MODSEC_CONF = '/etc/nginx/modsecurity.conf';
const UNICODE_MAP = '/etc/nginx/unicode.mapping';
const CRS_RULES = '/usr/share/modsecurity-crs/rules';
const CRS_SETUP_DIR = '/etc/modsecurity/crs';

/** undefined when ModSecurity can run here, else what is missing. */
export function modsecAvailability(): string | undefined {
  const missing = [NGINX, MODULE, MODSEC_CONF, join(CRS_RULES, 'REQUEST-901-INITIALIZATION.conf')].filter(
    (p) => !existsSync(p),
  );
  if (missing.length === 0) return undefined;
  return `not installed (${missing.join(', ')} missing; apt-get install nginx libnginx-mod-http-modsecurity modsecurity-crs)`;
}

export interface ModsecFigure {
  /** CPU µs per request of the nginx process with ModSecurity on. */
  total: number;
  /** The same with ModSecurity off (proxying only). */
  proxy: number;
  /** total − proxy: ModSecurity's own cost. */
  waf: number;
  /** HTTP status ModSecurity's server answered. */
  status: number;
  requests: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system) a process has used so far, in µs (clock-tick resolution: 10 ms). */
export function cpuMicros(pid: number): number {
  return cpuTicks(pid) * TICK_US;
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the parenthesised command name; utime and stime are fields 14 and 15
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

async function waitForPort(port: number, child: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nginx did not listen on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function send(agent: http.Agent, port: number, req: WafRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: string[] = [];
    for (const [name, value] of req.headers) headers.push(name, value);
    const r = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.uri, headers, agent, setHost: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

/** An nginx + ModSecurity + CRS instance at one paranoia level. */
export class ModsecServer {
  private constructor(
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly backend: http.Server | undefined,
    readonly wafPort: number,
    readonly proxyPort: number,
    private readonly agent: http.Agent,
  ) {}

  /**
   * `backendPort`: proxy to this server on 127.0.0.1 (bench/edge-proxy.ts's origin) instead of a small
   * backend in this process.
   */
  static async start(
    paranoiaLevel: number,
    options: { backendPort?: number; threshold?: number; logLevel?: 'warn' | 'info' } = {},
  ): Promise<ModsecServer> {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-modsec-'));
    let backend: http.Server | undefined;
    let backendPort = options.backendPort;
    if (backendPort === undefined) {
      const own = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '11' });
          res.end('backend ok\n');
        });
      });
      await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
      backendPort = (own.address() as net.AddressInfo).port;
      backend = own;
    }
    const wafPort = await freePort();
    const proxyPort = await freePort();
    const modsec = readFileSync(MODSEC_CONF, 'utf8')
      .replace(/^SecRuleEngine .*$/m, 'SecRuleEngine On')
      .replace(/^SecResponseBodyAccess .*$/m, 'SecResponseBodyAccess Off')
      .replace(/^SecAuditEngine .*$/m, 'SecAuditEngine Off')
      .replace(/^SecAuditLog .*$/m, `SecAuditLog ${join(dir, 'audit.log')}`)
      .replace(/^SecTmpDir .*$/m, `SecTmpDir ${dir}`)
      .replace(/^SecDataDir .*$/m, `SecDataDir ${dir}`)
      .replace(/^SecUnicodeMapFile unicode\.mapping/m, `SecUnicodeMapFile ${UNICODE_MAP}`)
      .replace(/^SecStatusEngine .*$/m, 'SecStatusEngine Off');
    writeFileSync(join(dir, 'modsecurity.conf'), modsec);
    const optional = (name: string) =>
      existsSync(join(CRS_SETUP_DIR, name)) ? `Include ${join(CRS_SETUP_DIR, name)}` : '';
    writeFileSync(
      join(dir, 'rules.conf'),
      [
        `Include ${join(dir, 'modsecurity.conf')}`,
        `Include ${join(CRS_SETUP_DIR, 'crs-setup.conf')}`,
        `SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:tx.paranoia_level=${paranoiaLevel}"`,
        `SecAction "id:900110,phase:1,nolog,pass,t:none,setvar:tx.inbound_anomaly_score_threshold=${options.threshold ?? 5},setvar:tx.outbound_anomaly_score_threshold=4"`,
        optional('REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf'),
        `Include ${CRS_RULES}/*.conf`,
        optional('RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf'),
        '',
      ].join('\n'),
    );
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((t) => `${t}_temp_path ${join(dir, t)};`)
      .join(' ');
    writeFileSync(
      join(dir, 'nginx.conf'),
      `load_module ${MODULE};
daemon off; master_process off; worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} ${options.logLevel ?? 'warn'};
events { worker_connections 1024; }
http {
  access_log off;
  ${temp}
  client_body_buffer_size 128k;
  client_max_body_size 1m;
  upstream backend { server 127.0.0.1:${backendPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${wafPort};
    modsecurity on;
    modsecurity_rules_file ${join(dir, 'rules.conf')};
    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
  }
  server {
    listen 127.0.0.1:${proxyPort};
    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
  }
}
`,
    );
    const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: 'ignore',
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const server = new ModsecServer(dir, child, backend, wafPort, proxyPort, agent);
    try {
      await waitForPort(wafPort, child, 20_000);
      await waitForPort(proxyPort, child, 5_000);
    } catch (err) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      await server.stop();
      throw new Error(`${(err as Error).message}\n${log.split('\n').slice(-5).join('\n')}`);
    }
    return server;
  }

  private logOffset = 0;

  /**
   * Sends `req` to ModSecurity's server and waits for the answer: its status and the ids of the rules that
   * matched, read from the lines ModSecurity wrote to nginx's error log meanwhile (send one at a time).
   * Status 0: the request could not be sent as recorded (Node refuses it), `error` says why.
   */
  async decide(req: WafRequest): Promise<{ status: number; ruleIds: number[]; error?: string }> {
    let status = 0;
    let error: string | undefined;
    try {
      status = await send(this.agent, this.wafPort, req);
    } catch (err) {
      error = (err as Error).message;
    }
    const fd = openSync(join(this.dir, 'error.log'), 'r');
    let text = '';
    try {
      const size = fstatSync(fd).size;
      const chunk = Buffer.alloc(size - this.logOffset);
      readSync(fd, chunk, 0, chunk.length, this.logOffset);
      this.logOffset = size;
      text = chunk.toString('latin1');
    } finally {
      closeSync(fd);
    }
    const ruleIds = [...text.matchAll(/\[id "(\d+)"\]/g)].map((m) => Number(m[1]));
    return { status, ruleIds: [...new Set(ruleIds)], ...(error ? { error } : {}) };
  }

  /** The nginx process is still running. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The nginx process (ModSecurity's server and the plain proxy both run in it). */
  get pid(): number {
    return this.child.pid as number;
  }

  /** Sends `req` until the nginx process has used about `cpuSeconds` of CPU (at least `min` times). */
  private async measure(port: number, req: WafRequest, cpuSeconds: number, min: number) {
    const pid = this.child.pid!;
    let status = 0;
    for (let i = 0; i < 10; i++) status = await send(this.agent, port, req);
    const budget = (cpuSeconds * 1e6) / TICK_US;
    const started = cpuTicks(pid);
    const deadline = Date.now() + cpuSeconds * 20_000;
    let n = 0;
    while (n < min || (cpuTicks(pid) - started < budget && Date.now() < deadline)) {
      for (let i = 0; i < 10; i++) status = await send(this.agent, port, req);
      n += 10;
    }
    return { us: ((cpuTicks(pid) - started) * TICK_US) / n, status, n };
  }

  /** CPU per request of ModSecurity for `req` (and of the proxy alone, for reference). */
  async cost(req: WafRequest, cpuSeconds = 1.5): Promise<ModsecFigure> {
    const waf = await this.measure(this.wafPort, req, cpuSeconds, 20);
    const proxy = await this.measure(this.proxyPort, req, cpuSeconds / 4, 20);
    return {
      total: waf.us,
      proxy: proxy.us,
      waf: Math.max(0, waf.us - proxy.us),
      status: waf.status,
      requests: waf.n,
    };
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    if (this.child.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGQUIT');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    const backend = this.backend;
    if (backend) await new Promise<void>((resolve) => backend.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
