import { call, client } from './api';
import { keys, useApi } from './queries';

/** What this server can do beyond the API itself (GET /capabilities): whether it sends mail. */
export function useCapabilities() {
  return useApi(keys.capabilities, () => call(client.GET('/capabilities')));
}
