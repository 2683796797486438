// Test hosts in network namespaces on this machine: a bridge in the root namespace (the test process is the
// client, on the bridge's address) and one namespace per host, joined to the bridge by a veth pair.
// Names carry the test process's pid, so runs do not collide and a later run can remove what a killed run
// left behind.
import { execFileSync } from 'node:child_process';

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** True when this process may create network namespaces (root, iproute2, a kernel that allows it). */
export function netnsAvailable(): boolean {
  const probe = `cairn-probe-${process.pid}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return true;
  } catch {
    return false;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of the processes in a namespace. */
export function pidsIn(ns: string): number[] {
  try {
    return ip('netns', 'pids', ns).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Removes the namespaces and bridges of earlier runs whose test process is gone (and what runs in them). */
export function removeStale() {
  for (const line of ip('netns', 'list').split('\n')) {
    const match = /^(cairn-c(\d+)-\w+)/.exec(line);
    if (!match || alive(Number(match[2]))) continue;
    for (const pid of pidsIn(match[1]!)) process.kill(pid, 'SIGKILL');
    ip('netns', 'del', match[1]!);
  }
  for (const line of ip('-o', 'link', 'show', 'type', 'bridge').split('\n')) {
    const match = /^\d+: (cc(\d+)br)[:@]/.exec(line);
    if (match && !alive(Number(match[2]))) ip('link', 'del', match[1]!);
  }
}

export interface Network {
  /** The bridge's address in the root namespace (where the test process and the origin server listen). */
  gateway: string;
  /** Each host's namespace name and address. */
  hosts: Record<string, { ns: string; address: string }>;
  /** Runs `ip netns exec <ns> …` arguments for a command in a host's namespace. */
  exec(host: string, command: string[]): string[];
  /** Kills what still runs in the namespaces, deletes them and the bridge. */
  remove(): void;
}

/** A /24 on 10.231.x.0 that no interface of this machine uses yet. */
function freeSubnet(): string {
  const used = ip('-4', '-o', 'addr', 'show');
  for (let i = 0; i < 254; i++) {
    const x = ((process.pid + i) % 254) + 1;
    if (!used.includes(`10.231.${x}.`)) return `10.231.${x}`;
  }
  throw new Error('no free 10.231.x.0/24 subnet for the test network');
}

/** A bridge and one namespace per named host, each with an address on the bridge's subnet. */
export function createNetwork(names: readonly string[]): Network {
  removeStale();
  const tag = process.pid;
  const subnet = freeSubnet();
  const bridge = `cc${tag}br`;
  const hosts: Network['hosts'] = {};
  const network: Network = {
    gateway: `${subnet}.1`,
    hosts,
    exec: (host, command) => ['netns', 'exec', hosts[host]!.ns, ...command],
    remove() {
      for (const { ns } of Object.values(hosts)) {
        for (const pid of pidsIn(ns)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
        try {
          ip('netns', 'del', ns);
        } catch {
          // not made, or gone
        }
      }
      try {
        ip('link', 'del', bridge);
      } catch {
        // not made, or gone
      }
    },
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${network.gateway}/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    names.forEach((name, i) => {
      const ns = `cairn-c${tag}-${name}`;
      const address = `${subnet}.${i + 2}`;
      hosts[name] = { ns, address };
      const outside = `cc${tag}v${i}`;
      ip('netns', 'add', ns);
      ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('link', 'set', outside, 'master', bridge);
      ip('link', 'set', outside, 'up');
      ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'route', 'add', 'default', 'via', network.gateway);
    });
  } catch (error) {
    network.remove();
    throw error;
  }
  return network;
}
