// Reads what the test SMTP server received: headers unfolded, the text part decoded (quoted-printable
// or base64) and, for multipart/mixed messages, the attachments' bytes. Enough MIME for what nodemailer
// writes; no server-only imports, so plain tsx runs it.

export type MailPart = { headers: Record<string, string>; body: Buffer };
export type ParsedMail = {
  headers: Record<string, string>;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable': {
      const soft = body.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let index = 0; index < soft.length; index += 1) {
        const hex = soft.slice(index + 1, index + 3);
        if (soft[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
          bytes.push(parseInt(hex, 16));
          index += 2;
        } else bytes.push(...Buffer.from(soft[index]!, 'utf8'));
      }
      return Buffer.from(bytes);
    }
    default:
      return Buffer.from(body, 'utf8');
  }
}

/** An RFC 2047 encoded-word header (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) as text. */
function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable').toString('utf8'),
  );
}

const parameter = (header: string | undefined, name: string) => new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header ?? '')?.[1];

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitHead(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const parts: MailPart[] = [];
  if (/^multipart\//i.test(type)) {
    const boundary = parameter(type, 'boundary')!;
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHead(chunk.replace(/^\r?\n/, ''));
      parts.push({ headers: part.headers, body: decodeBody(part.body.replace(/\r?\n$/, ''), part.headers['content-transfer-encoding']) });
    }
  } else parts.push({ headers: { 'content-type': type }, body: decodeBody(body, headers['content-transfer-encoding']) });
  const textPart = parts.find(
    (part) => /^text\/plain/i.test(part.headers['content-type'] ?? '') && !/attachment/i.test(part.headers['content-disposition'] ?? ''),
  );
  const attachments = parts
    .filter((part) => /attachment/i.test(part.headers['content-disposition'] ?? ''))
    .map((part) => ({
      filename: decodeWords(parameter(part.headers['content-disposition'], 'filename') ?? ''),
      contentType: (part.headers['content-type'] ?? '').split(';')[0]!.trim(),
      content: part.body,
    }));
  return {
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: textPart ? textPart.body.toString('utf8').replace(/\r\n/g, '\n') : '',
    attachments,
  };
}
