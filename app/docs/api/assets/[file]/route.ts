import { readSwaggerUiAsset } from '@/lib/http/swagger-ui-assets';

/** Swagger UI's script and styles for the API reference page (lib/http/swagger-ui-assets.ts); any other name is 404. */
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const asset = await readSwaggerUiAsset((await params).file);
  if (!asset) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  return new Response(new Uint8Array(asset.body), {
    headers: { 'content-type': asset.contentType, 'cache-control': 'public, max-age=31536000, immutable' },
  });
}
