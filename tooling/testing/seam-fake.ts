import { createFake } from '@seamapi/fake-seam-connect';
import { setLockProvider } from '../../lib/locks/locks';
import { setProviderSecret } from '../../lib/secrets/provider-secrets';
import { TEST_ACTOR } from './fixtures';

/**
 * Seam's own fake, seeded, serving at SEAM_ENDPOINT, with an API key of this test file's own: the account identity
 * (and so which tenant holds each seeded device) is the file's alone, whatever other files hold of the seeded
 * workspace's devices. `useFor` makes a tenant's locks Seam's on that key.
 */
export async function startSeamFake(label: string) {
  const fake = await createFake();
  await fake.seed();
  const apiKey = fake.database.addApiKey({
    workspace_id: 'seed_workspace_1',
    token: `seam_${label}${Date.now()}_token`,
  }).token!;
  await fake.startServer();
  process.env.SEAM_ENDPOINT = fake.serverUrl!;
  return {
    apiKey,
    async useFor(tenantId: string) {
      await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
      await setProviderSecret({ tenantId, provider: 'seam', value: apiKey, actor: TEST_ACTOR });
    },
    async stop() {
      delete process.env.SEAM_ENDPOINT;
      await fake.stopServer();
    },
  };
}
