/** Where the API lives; set once by the shell from its run-time config (env.json). */
let apiBaseUrl = '';

export function configureApi(options: { baseUrl: string }): void {
  apiBaseUrl = options.baseUrl.replace(/\/+$/, '');
}

export function getApiBaseUrl(): string {
  return apiBaseUrl;
}

/** An absolute URL for an API path such as `/api/posts` or an uploaded avatar `/uploads/x.webp`. */
export function resolveApiUrl(pathOrUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl) || pathOrUrl.startsWith('//')) return pathOrUrl;
  return `${apiBaseUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}
