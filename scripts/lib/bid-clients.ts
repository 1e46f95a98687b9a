/**
 * A bid storm from simulated web clients (`npm run bench -- --clients`), beside autocannon's.
 *
 * Each of `connections` clients is one bidder at a time on a keep-alive connection of its own, and
 * builds every request as the web client in Chromium does: the browser's headers (user agent,
 * accept-*, origin, referer, sec-fetch-*) beside the app's own (accept, content-type, authorization),
 * and a JSON body made for this bid. The amount is what a person on the lot page would type: the
 * minimum the server last showed for that lot (its 201 answers' `min_next_bid`, as the live events
 * carry it to every watcher) plus, now and then, a step or two more; after a refusal that says "at
 * least ₹X", X (after "higher than … ₹X", X and a step). So bids race at the minimum as real ones do, and the server parses, refuses and
 * answers what real clients send, not one prebuilt request replayed.
 *
 * Closed loops for `seconds`, like autocannon's: the figures are comparable with the default storm.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

export interface ClientStormOptions {
  base: string;
  /** Bidders' tokens, used in turn. */
  tokens: readonly string[];
  productIds: readonly string[];
  auctionId: string;
  connections: number;
  seconds: number;
  /**
   * The lowest acceptable bid each lot shows (rupees), as its watchers learn it: read and raised here,
   * kept by the caller across storms. A lot not in it starts at ₹10 (a refusal then says how much).
   */
  shown: Map<string, number>;
}

/** The fields of autocannon's result the bench reads. */
export interface StormResult {
  requests: { average: number; total: number };
  '2xx': number;
  '5xx': number;
  non2xx: number;
  errors: number;
}

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const RUPEES = '₹([\\d,]+(?:\\.\\d+)?)';
/** "Bid must be at least ₹X": X. */
const AT_LEAST = new RegExp(`at least ${RUPEES}`);
/** "…higher than current highest bid of ₹X": X and one step (the bench auction's step is ₹1). */
const ABOVE = new RegExp(`highest bid of ${RUPEES}`);
const rupeesIn = (re: RegExp, text: string) => {
  const m = re.exec(text);
  return m ? Number(m[1]!.replaceAll(',', '')) : null;
};

/** As the browser would: an answer is decoded as its content-encoding says. */
function decode(body: Buffer, encoding: string | undefined): string {
  switch (encoding) {
    case 'br': return zlib.brotliDecompressSync(body).toString('utf8');
    case 'gzip': return zlib.gunzipSync(body).toString('utf8');
    case 'deflate': return zlib.inflateSync(body).toString('utf8');
    default: return body.toString('utf8');
  }
}

/** A request gives up after this long, as autocannon's do (counted as an error). */
const TIMEOUT_MS = 10_000;

function post(transport: typeof http | typeof https, agent: http.Agent, url: URL, headers: http.OutgoingHttpHeaders, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = transport.request({ agent, hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port, method: 'POST', path: '/api/bid', headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => { chunks.push(chunk); });
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, text: decode(Buffer.concat(chunks), res.headers['content-encoding']) });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export async function clientStorm(o: ClientStormOptions): Promise<StormResult> {
  const url = new URL(o.base);
  const transport = url.protocol === 'https:' ? https : http;
  const origin = url.origin;
  const { shown } = o;
  for (const id of o.productIds) if (!shown.has(id)) shown.set(id, 10);
  let total = 0;
  let ok = 0;
  let failed5xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + o.seconds * 1000;

  const client = async (k: number) => {
    const agent = new transport.Agent({ keepAlive: true, maxSockets: 1 });
    let next = k;
    /** What this client was last told it must bid at least, per lot (a refusal's sentence). */
    const told = new Map<string, number>();
    try {
      while (performance.now() < end) {
        const i = next;
        next += o.connections;
        const token = o.tokens[i % o.tokens.length]!;
        const productId = o.productIds[i % o.productIds.length]!;
        const minimum = Math.max(shown.get(productId)!, told.get(productId) ?? 0);
        // One bid in four goes a step or two over the minimum, as people round up.
        const amount = Math.random() < 0.25 ? minimum + 1 + Math.floor(Math.random() * 2) : minimum;
        const body = JSON.stringify({ product_id: productId, bid_amount: amount });
        const headers: http.OutgoingHttpHeaders = {
          host: url.host,
          connection: 'keep-alive',
          'content-length': Buffer.byteLength(body),
          'sec-ch-ua-platform': '"Linux"',
          authorization: `Bearer ${token}`,
          'sec-ch-ua': '"Chromium";v="156", "Not-A.Brand";v="24"',
          'sec-ch-ua-mobile': '?0',
          'user-agent': USER_AGENT,
          accept: 'application/json',
          'content-type': 'application/json',
          origin,
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': 'cors',
          'sec-fetch-dest': 'empty',
          referer: `${origin}/user/auctions/${encodeURIComponent(o.auctionId)}/lots/${encodeURIComponent(productId)}`,
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en-GB,en;q=0.9',
        };
        let answer: { status: number; text: string };
        try {
          answer = await post(transport, agent, url, headers, body);
        } catch {
          errors++;
          continue;
        }
        total++;
        if (answer.status === 201) {
          ok++;
          let shows: number | undefined;
          try {
            shows = (JSON.parse(answer.text) as { min_next_bid?: number }).min_next_bid;
          } catch {
            // Not JSON (a proxy's page): nothing learnt.
          }
          if (typeof shows === 'number' && shows > shown.get(productId)!) shown.set(productId, shows);
          told.delete(productId);
          continue;
        }
        if (answer.status >= 500) failed5xx++;
        const atLeast = rupeesIn(AT_LEAST, answer.text);
        const above = rupeesIn(ABOVE, answer.text);
        if (atLeast !== null) told.set(productId, atLeast);
        else if (above !== null) told.set(productId, above + 1);
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: o.connections }, (_, k) => client(k)));
  const elapsed = (performance.now() - started) / 1000;
  return { requests: { average: total / elapsed, total }, '2xx': ok, '5xx': failed5xx, non2xx: total - ok, errors };
}
