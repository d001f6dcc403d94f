import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { rememberSession, sessionQuery, type SessionInfo } from '../api.js';

/** After setup, sign-in or an accepted invitation: keep the new session and go to the overview. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (info: SessionInfo) => {
    rememberSession(info);
    queryClient.clear();
    queryClient.setQueryData(sessionQuery.queryKey, info);
    void navigate({ to: '/' });
  };
}
