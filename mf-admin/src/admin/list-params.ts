import { useSearchParams } from 'react-router-dom';

/**
 * The filter and page of an admin list live in the URL (`?status=resolved&page=2`), so Back,
 * a reload and a shared link show the same list. A value not in `statuses` is the default.
 */
export function useListParams<S extends string>(statuses: readonly S[], fallback: S) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = statuses.find((value) => value === raw) ?? fallback;
  const parsedPage = Number(params.get('page'));
  const page = Number.isInteger(parsedPage) && parsedPage > 0 ? parsedPage : 1;
  const update = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, String(value));
    }
    setParams(next);
  };
  return {
    status,
    page,
    params,
    /** A new filter starts again from the first page. */
    setStatus: (value: S) => update({ status: value, page: null }),
    setPage: (value: number) => update({ page: value > 1 ? value : null }),
    update,
  };
}
