import { call, client } from '../../api';
import { useWrite } from '../../queries';
import { useRouter } from '../../router';
import { useSession } from '../../session';

/** Signs this browser out and shows the sign-in screen; the error, if the server refused, is in `error`. */
export function useSignOut() {
  const { setSession } = useSession();
  const { navigate } = useRouter();
  const write = useWrite(() => call(client.DELETE('/session')));
  const signOut = async () => {
    if (!(await write.execute())) return;
    setSession(null);
    navigate('/sign-in', { replace: true });
  };
  return { signOut, pending: write.pending, error: write.error };
}
