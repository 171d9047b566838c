import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../src/contract/contract.js';
import { File } from '../../src/contract/schemas/index.js';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/products/${name}`, import.meta.url));

describe('POST /files', () => {
  let t: TestEmulator;
  const upload = (body: unknown, key?: string) => call(t.emulator, 'POST', '/files', { body, key });

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it.each([
    ['pixel.png', 'png'],
    ['pixel.jpg', 'jpg'],
    ['pixel.webp', 'webp'],
  ])('hosts %s (201 File with an https url) judged by content', async (name, extension) => {
    // The name lies on purpose: the type comes from the bytes.
    const answer = await upload({ base64: fixture(name).toString('base64'), filename: 'photo.gif' });
    expect(answer.status).toBe(201);
    const file = File.parse(answer.body);
    expect(file.id).toMatch(/^file_/);
    expect(file.url).toMatch(
      new RegExp(`^https://cdn\\.emulator\\.invalid/files/${file.id}\\.${extension}$`),
    );
    expect(t.emulator.store.files.get(file.id)).toMatchObject({
      size: fixture(name).length,
      filename: 'photo.gif',
    });
    expect(t.emulator.writeQuotaUsed()).toBe(0);
  });

  it('refuses text named .png with 422 validation_failed', async () => {
    const answer = await upload({
      base64: fixture('not-an-image.png').toString('base64'),
      filename: 'x.png',
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_failed', param: 'base64' });
    expect(t.emulator.store.files.size).toBe(0);
  });

  it('refuses more than 10 MB with 413 file_too_large, and accepts exactly 10 MB', async () => {
    const png = fixture('pixel.png');
    const over = Buffer.alloc(FILE_MAX_BYTES + 1);
    png.copy(over);
    const answer = await upload({ base64: over.toString('base64') });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('file_too_large');
    const exact = await upload({ base64: over.subarray(0, FILE_MAX_BYTES).toString('base64') });
    expect(exact.status).toBe(201);
  });

  it('refuses text that is not base64 (400) and a missing base64 (400 parameter_missing)', async () => {
    expect((await upload({ base64: '***' })).status).toBe(400);
    const missing = await upload({ filename: 'a.png' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'base64' });
  });

  it('a test key is answered the same and nothing is kept; a read-only key is 403', async () => {
    const body = { base64: fixture('pixel.png').toString('base64') };
    const simulated = await upload(body, t.emulator.keys.test);
    expect(simulated.status).toBe(201);
    expect(t.emulator.store.files.has(simulated.body.id)).toBe(false);
    expect((await upload(body, t.emulator.keys.read_only)).status).toBe(403);
  });

  it('a hosted file url used in a product keeps its address', async () => {
    const file = (await upload({ base64: fixture('pixel.png').toString('base64') })).body;
    const product = [...t.emulator.store.products.values()][0];
    const images = [...product.images.map((image) => ({ id: image.id })), { url: file.url }];
    const answer = await call(t.emulator, 'PATCH', `/products/${product.id}`, { body: { images } });
    expect(answer.status).toBe(200);
    expect(answer.body.images.at(-1).url).toBe(file.url);
  });
});
