import { escapeHtml } from '@cairn/kit';

/**
 * The pages the edge answers itself. Each names the ray id (as `CF-Ray` does), so a blocked visitor can
 * quote it and the zone owner can find the request in Security Events.
 */
export interface EdgePage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function page(
  status: number,
  title: string,
  lines: string[],
  rayId: string,
  extra: Record<string, string> = {},
): EdgePage {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="robots" content="noindex, nofollow"></head>
<body><h1>${escapeHtml(title)}</h1>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>Ray ID: <code>${escapeHtml(rayId)}</code></p>
<p><small>Cairn edge</small></p></body></html>
`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    },
    body,
  };
}

export const blockedPage = (host: string, rayId: string): EdgePage =>
  page(
    403,
    'Sorry, you have been blocked',
    [
      `This website (${host}) uses a security service to protect itself from online attacks.`,
      'The request you sent matched a rule of its web application firewall.',
    ],
    rayId,
    { 'cf-mitigated': 'block' },
  );

/**
 * A challenge: Cairn has no browser challenge infrastructure, so a challenge is answered like a block,
 * told apart by `cf-mitigated: challenge` (the header the real service sets on challenge pages).
 */
export const challengePage = (host: string, rayId: string, action: string): EdgePage =>
  page(
    403,
    'Checking if the site connection is secure',
    [
      `${host} needs to review the security of your connection before proceeding (${action}).`,
      'This edge cannot run browser challenges, so the request was not let through.',
    ],
    rayId,
    { 'cf-mitigated': 'challenge' },
  );

export const noZonePage = (host: string, rayId: string): EdgePage =>
  page(
    404,
    'No zone for this host',
    [`No zone on this edge serves ${host || 'requests without a Host header'}.`],
    rayId,
  );

export const noOriginPage = (host: string, rayId: string): EdgePage =>
  page(502, 'Origin not configured', [`The zone serving ${host} has no origin yet.`], rayId);

export const badGatewayPage = (host: string, rayId: string): EdgePage =>
  page(502, 'Bad gateway', [`The origin of ${host} could not be reached or answered badly.`], rayId);

export const gatewayTimeoutPage = (host: string, rayId: string): EdgePage =>
  page(504, 'Gateway time-out', [`The origin of ${host} did not answer in time.`], rayId);

export const badRequestPage = (rayId: string, why = 'The request has no usable Host header.'): EdgePage =>
  page(400, 'Bad request', [why], rayId);

export const methodNotAllowedPage = (host: string, rayId: string, method: string): EdgePage =>
  page(405, 'Method not allowed', [`${host} does not accept ${method} requests through this edge.`], rayId, {
    allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  });
