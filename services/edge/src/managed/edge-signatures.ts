import { stableId } from '../api/ids.ts';

/**
 * The edge managed ruleset's signatures, written in the Rules language. Each is also a rule of the
 * previous WAF's "CloudFlare" package (legacy id and group), so one catalogue serves both.
 * `slug` names the rule (its id is derived from it unless a real public id is known).
 */
export interface Signature {
  slug: string;
  /** The real public id, when the reference gives one. */
  id?: string;
  legacyId: string;
  group: string;
  description: string;
  expression: string;
  categories: string[];
  action: 'block' | 'log' | 'managed_challenge';
  enabled: boolean;
}

const SPECIALS = 'Cloudflare Specials';
const APACHE = 'Cloudflare Apache';
const PHP = 'Cloudflare PHP';
const WORDPRESS = 'Cloudflare WordPress';
const DRUPAL = 'Cloudflare Drupal';
const JOOMLA = 'Cloudflare Joomla';
const JAVA = 'Cloudflare Java';
const MISC = 'Cloudflare Miscellaneous';

const uri = 'lower(url_decode(http.request.uri))';
const query = 'lower(url_decode(http.request.uri.query))';

/**
 * A Log4j lookup that hides its name: a lookup nested in another (`${${lower:j}ndi:`, `${j${::-n}di:`,
 * `${${env:X:-j}ndi:`, any lookup or default value producing a letter) or a lookup that only exists to
 * read or rewrite data (`${env:`, `${sys:`, `${lower:`, `${::-x}`…). A plain template `${name}` or a
 * shell default `${VAR:-x}` is neither.
 */
const LOG4J_OBFUSCATED = String.raw`\$\{[^}]{0,64}\$\{|\$\{(lower|upper|env|sys|date|base64|main|java|ctx|jvmrunargs|k8s|docker|spring|web|sd|map|marker|bundle|event|log4j)?:`;

/** Spring's data binding reaching the class loader (Spring4Shell, and CVE-2010-1622 before it). */
const SPRING_CLASSLOADER = String.raw`class\.(module\.)?classloader\.|class\.protectiondomain\.`;

export const SIGNATURES: readonly Signature[] = [
  {
    slug: 'path-traversal-path',
    legacyId: '100001',
    group: SPECIALS,
    description: 'Path traversal - dot-dot-slash in the URI path',
    // The path as sent: URL normalisation removes the dot segments the origin may still resolve.
    expression: String.raw`url_decode(raw.http.request.uri.path) contains "../" or url_decode(raw.http.request.uri.path) contains "..\\"`,
    categories: ['path-traversal', 'lfi'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'path-traversal-query',
    legacyId: '100002',
    group: SPECIALS,
    description: 'Path traversal - dot-dot-slash in the query string',
    expression: `url_decode(http.request.uri.query) contains "../"`,
    categories: ['path-traversal', 'lfi'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'lfi-system-files',
    legacyId: '100003',
    group: SPECIALS,
    description: 'Local file inclusion - well-known system files',
    expression: `${uri} contains "/etc/passwd" or ${uri} contains "/etc/shadow" or ${uri} contains "/proc/self/environ" or ${uri} contains "win.ini"`,
    categories: ['lfi', 'path-traversal'],
    action: 'block',
    enabled: true,
  },
  // Log4Shell: the three rules and their public ids as announced on 2021-12-10 (legacy 100514–100516), and
  // the "Advanced" rules for obfuscated lookups (legacy 100517, 100518; their new-WAF ids are not public
  // in our reference, so they are derived from the slug).
  {
    slug: 'log4j-uri',
    id: '5f6744fa026a4638bda5b3d7d5e015dd',
    legacyId: '100516',
    group: JAVA,
    description: 'Log4j URL - CVE:CVE-2021-44228',
    expression: `${uri} contains "\${jndi:"`,
    categories: ['log4j', 'cve-2021-44228', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'log4j-headers',
    id: '6b1cc72dff9746469d4695a474430f12',
    legacyId: '100514',
    group: JAVA,
    description: 'Log4j Headers - CVE:CVE-2021-44228',
    expression: `any(lower(http.request.headers.values[*])[*] contains "\${jndi:")`,
    categories: ['log4j', 'cve-2021-44228', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'log4j-body',
    id: '0c054d4e4dd5455c9ff8f01efe5abb10',
    legacyId: '100515',
    group: JAVA,
    description: 'Log4j Body - CVE:CVE-2021-44228',
    expression: `lower(http.request.body.raw) contains "\${jndi:"`,
    categories: ['log4j', 'cve-2021-44228', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'log4j-obfuscated',
    legacyId: '100517',
    group: JAVA,
    description: 'Log4j Advanced URI, Headers - obfuscated lookups - CVE:CVE-2021-44228, CVE:CVE-2021-45046',
    expression: `any(lower(http.request.headers.values[*])[*] matches "${LOG4J_OBFUSCATED}") or ${uri} matches "${LOG4J_OBFUSCATED}"`,
    categories: ['log4j', 'cve-2021-44228', 'cve-2021-45046', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'log4j-obfuscated-body',
    legacyId: '100518',
    group: JAVA,
    description: 'Log4j Advanced Body - obfuscated lookups - CVE:CVE-2021-44228, CVE:CVE-2021-45046',
    expression: `lower(url_decode(http.request.body.raw)) matches "${LOG4J_OBFUSCATED}"`,
    categories: ['log4j', 'cve-2021-44228', 'cve-2021-45046', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'shellshock-headers',
    legacyId: '100010',
    group: SPECIALS,
    description: 'Shellshock - function definition in a request header - CVE:CVE-2014-6271',
    expression: 'any(http.request.headers.values[*] contains "() {")',
    categories: ['shellshock', 'cve-2014-6271', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'shellshock-uri',
    legacyId: '100011',
    group: SPECIALS,
    description: 'Shellshock - function definition in the URI - CVE:CVE-2014-6271',
    expression: 'url_decode(http.request.uri) contains "() {"',
    categories: ['shellshock', 'cve-2014-6271', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'probe-database-admin',
    legacyId: '100020',
    group: MISC,
    description: 'Admin panel probe - phpMyAdmin and other database consoles',
    expression:
      'lower(http.request.uri.path) matches "^/(phpmyadmin|pma|myadmin|mysqladmin|adminer)(/|\\.php|$)"',
    categories: ['admin-panel', 'probe'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'probe-dotenv',
    legacyId: '100021',
    group: MISC,
    description: 'Information disclosure probe - .env file',
    expression: 'http.request.uri.path wildcard "*/.env" or http.request.uri.path wildcard "*/.env.*"',
    categories: ['information-disclosure', 'probe'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'probe-git',
    legacyId: '100022',
    group: MISC,
    description: 'Information disclosure probe - version control metadata (.git, .svn)',
    expression: 'http.request.uri.path contains "/.git/" or http.request.uri.path contains "/.svn/"',
    categories: ['information-disclosure', 'probe'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'probe-tomcat-manager',
    legacyId: '100023',
    group: APACHE,
    description: 'Admin panel probe - Apache Tomcat manager',
    expression:
      'http.request.uri.path wildcard "/manager/html*" or http.request.uri.path wildcard "/host-manager/*"',
    categories: ['admin-panel', 'probe', 'tomcat'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'probe-spring-actuator',
    legacyId: '100024',
    group: JAVA,
    description: 'Information disclosure probe - Spring Boot actuator endpoints',
    expression:
      'http.request.uri.path wildcard "*/actuator/env*" or http.request.uri.path wildcard "*/actuator/heapdump*"',
    categories: ['spring', 'information-disclosure', 'probe'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'struts-ognl-content-type',
    legacyId: '100030',
    group: APACHE,
    description: 'Apache Struts - OGNL in Content-Type - CVE:CVE-2017-5638',
    expression:
      'any(http.request.headers["content-type"][*] contains "%{") or any(http.request.headers["content-type"][*] contains "${")',
    categories: ['struts', 'cve-2017-5638', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'struts-open-redirect',
    id: '23ee7cebe6e8443e99ecf932ab579455',
    legacyId: '100031',
    group: APACHE,
    description: 'Apache Struts - Open Redirect - CVE:CVE-2013-2248',
    expression: `${query} contains "redirect:" or ${query} contains "redirectaction:"`,
    categories: ['struts', 'cve-2013-2248', 'open-redirect'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'spring4shell',
    legacyId: '100032',
    group: JAVA,
    description: 'Spring4Shell - class loader manipulation - CVE:CVE-2022-22965',
    expression: `${query} matches "${SPRING_CLASSLOADER}" or lower(url_decode(http.request.body.raw)) matches "${SPRING_CLASSLOADER}"`,
    categories: ['spring', 'cve-2022-22965', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'php-stream-wrappers',
    legacyId: '100040',
    group: PHP,
    description: 'PHP - stream wrapper in the query string (php://, phar://, expect://)',
    expression: `${query} matches "(php|phar|zip|expect|data)://"`,
    categories: ['php', 'lfi', 'rfi'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'php-cgi-argument-injection',
    legacyId: '100041',
    group: PHP,
    description: 'PHP CGI - argument injection - CVE:CVE-2012-1823, CVE:CVE-2024-4577',
    expression: `${query} contains "allow_url_include" or ${query} contains "auto_prepend_file"`,
    categories: ['php', 'cve-2012-1823', 'cve-2024-4577', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'wordpress-xmlrpc-multicall',
    legacyId: '100050',
    group: WORDPRESS,
    description: 'WordPress - XML-RPC system.multicall amplification',
    expression:
      'http.request.uri.path wildcard "*/xmlrpc.php" and http.request.body.raw contains "system.multicall"',
    categories: ['wordpress', 'brute-force'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'wordpress-config-backup',
    legacyId: '100051',
    group: WORDPRESS,
    description: 'WordPress - wp-config.php backup file',
    expression: String.raw`lower(http.request.uri.path) matches "wp-config\.(php[.~_-]|bak|old|save|txt)"`,
    categories: ['wordpress', 'information-disclosure'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'drupalgeddon2',
    legacyId: '100060',
    group: DRUPAL,
    description: 'Drupal - Drupalgeddon2 render array injection - CVE:CVE-2018-7600',
    expression: `${query} contains "#post_render" or ${query} contains "#lazy_builder" or lower(url_decode(http.request.body.raw)) contains "#post_render"`,
    categories: ['drupal', 'cve-2018-7600', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'joomla-config-disclosure',
    legacyId: '100070',
    group: JOOMLA,
    description: 'Joomla - unauthenticated config disclosure - CVE:CVE-2023-23752',
    expression:
      'http.request.uri.path contains "/api/index.php/v1/config/application" and http.request.uri.query contains "public=true"',
    categories: ['joomla', 'cve-2023-23752', 'information-disclosure'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'sqli-union-select',
    legacyId: '100080',
    group: SPECIALS,
    description: 'SQLi - UNION SELECT in the query string',
    expression: String.raw`${query} matches "union[\s+]+(all[\s+]+)?select"`,
    categories: ['sqli'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'sqli-time-based',
    legacyId: '100081',
    group: SPECIALS,
    description: 'SQLi - time-based blind probes (SLEEP, BENCHMARK, PG_SLEEP)',
    expression: String.raw`${query} matches "(sleep|benchmark|pg_sleep)\s*\("`,
    categories: ['sqli'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'xss-script-tag',
    legacyId: '100090',
    group: SPECIALS,
    description: 'XSS - script tag in the query string',
    expression: `${query} contains "<script"`,
    categories: ['xss'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'xss-event-handler',
    legacyId: '100091',
    group: SPECIALS,
    description: 'XSS - HTML event handler attribute in the query string',
    expression: String.raw`${query} matches "on(error|load|mouseover|focus)\s*="`,
    categories: ['xss'],
    action: 'block',
    enabled: false,
  },
  {
    slug: 'ssrf-cloud-metadata',
    legacyId: '100100',
    group: SPECIALS,
    description: 'SSRF - cloud instance metadata address in the query string',
    expression: `${query} contains "169.254.169.254" or ${query} contains "metadata.google.internal"`,
    categories: ['ssrf'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'command-injection',
    legacyId: '100110',
    group: SPECIALS,
    description: 'Command injection - shell command after a separator',
    expression: `${query} matches "[;|\\x60]\\s*(cat|wget|curl|nc|bash|sh|id|uname)(\\s|$)"`,
    categories: ['rce', 'command-injection'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'scanner-user-agents',
    legacyId: '100120',
    group: MISC,
    description: 'Vulnerability scanner user agents (sqlmap, nikto, nuclei, ...)',
    expression: 'lower(http.user_agent) matches "(sqlmap|nikto|nmap|masscan|zgrab|nuclei|wpscan)"',
    categories: ['scanner', 'probe'],
    action: 'log',
    enabled: true,
  },
  {
    slug: 'confluence-ognl',
    legacyId: '100130',
    group: JAVA,
    description: 'Atlassian Confluence - OGNL injection - CVE:CVE-2022-26134',
    expression:
      'url_decode(http.request.uri.path) contains "${" and url_decode(http.request.uri.path) contains "java.lang.Runtime"',
    categories: ['confluence', 'cve-2022-26134', 'rce'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'citrix-path-traversal',
    legacyId: '100140',
    group: MISC,
    description: 'Citrix ADC - path traversal - CVE:CVE-2019-19781',
    expression:
      'http.request.uri.path contains "/vpns/" and url_decode(http.request.uri.path) contains "../"',
    categories: ['citrix', 'cve-2019-19781', 'path-traversal'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'f5-tmui-traversal',
    legacyId: '100141',
    group: MISC,
    description: 'F5 BIG-IP TMUI - path traversal - CVE:CVE-2020-5902',
    expression: 'http.request.uri.path contains "/tmui/login.jsp/..;"',
    categories: ['f5', 'cve-2020-5902', 'path-traversal'],
    action: 'block',
    enabled: true,
  },
  {
    slug: 'exchange-proxyshell',
    legacyId: '100150',
    group: MISC,
    description: 'Microsoft Exchange - ProxyShell - CVE:CVE-2021-34473',
    expression:
      'lower(http.request.uri.path) contains "/autodiscover/autodiscover.json" and lower(http.request.uri.query) contains "powershell"',
    categories: ['exchange', 'cve-2021-34473', 'rce'],
    action: 'block',
    enabled: true,
  },
];

export const signatureId = (s: Signature) => s.id ?? stableId(`managed-rule:${s.slug}`);
