export type Photo = { name: string; bytes: Buffer; type?: string };

/**
 * The contact form's multipart body as a Request the handler reads as it streams: nothing is pulled
 * before the server reads, `counted` reports how many bytes it pulled. `chunkDelayMs` makes a slow
 * sender (each 64 KiB chunk after that pause, or `chunkBytes`); `address` is the client's; `accept`, what it asks for back.
 */
export async function multipartRequest(
  fields: Record<string, string>,
  photos: Photo[],
  options: { declareLength?: number; address?: string; chunkDelayMs?: number; chunkBytes?: number; accept?: string } = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const photo of photos)
    form.append('photos', new Blob([new Uint8Array(photo.bytes)], { type: photo.type ?? 'image/jpeg' }), photo.name);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const counted = { bytes: 0, total: body.length };
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset >= body.length) return controller.close();
        if (options.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, options.chunkDelayMs));
        const chunk = body.subarray(offset, offset + chunkBytes);
        offset += chunk.length;
        counted.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://127.0.0.1/api/contact', {
    method: 'POST',
    headers: {
      'content-type': encoded.headers.get('content-type')!,
      'content-length': String(options.declareLength ?? body.length),
      'x-homecare-client-address': options.address ?? `10.9.0.${Math.floor(Math.random() * 250)}`,
      ...(options.accept ? { accept: options.accept } : {}),
    },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { request, counted };
}
