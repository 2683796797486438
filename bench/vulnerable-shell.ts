// The simulated command injection of bench/vulnerable-origin.ts: `ping -c 1 <host>` as a careless app would
// build it, answered the way a shell would (nothing runs). Commands chained after ; | & ` $( or a newline
// print what the real ones print, so scanners (wapiti's exec module, sqlmap-like tools) see a hit.

const OUTPUTS: Array<[RegExp, string]> = [
  [/\bid\b/, 'uid=33(www-data) gid=33(www-data) groups=33(www-data)'],
  [/\benv\b/, 'PATH=/usr/local/bin:/usr/bin:/bin\nPWD=/var/www/html\nSHELL=/bin/sh'],
  [/\bset\b/, "PATH='/usr/local/bin:/usr/bin:/bin'\nPWD='/var/www/html'\nIFS=' \t\n'"],
  [
    /\b(cat|more|less|head)\b.*passwd/,
    'root:x:0:0:root:/root:/bin/bash\nwww-data:x:33:33::/var/www:/usr/sbin/nologin',
  ],
  [/\buname\b/, 'Linux shop 6.1.0-18-amd64 #1 SMP Debian x86_64 GNU/Linux'],
  [/\bwhoami\b/, 'www-data'],
];

const CHAIN = /[;|&`\n]|\$\(/;

export function simulatedShell(host: string): string {
  const ping = `PING ${host.split(CHAIN)[0]} 56(84) bytes of data.\n1 packets transmitted, 1 received, 0% packet loss`;
  if (!CHAIN.test(host)) return ping;
  const chained = host.slice(host.search(CHAIN));
  const outputs = OUTPUTS.filter(([command]) => command.test(chained)).map(([, output]) => output);
  return [ping, ...outputs].join('\n');
}
