import {
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  MEDIA_FIELD,
  callRoutes,
  type MediaUploadResponse,
} from '@campus/contracts';
import { ApiError, renewSession, resolveApiUrl } from '@campus/kit/api';

export interface UploadImageOptions {
  /** The share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** Sends an image and resolves with what the API stored of it. */
export type UploadImage = (
  file: File,
  options?: UploadImageOptions,
) => Promise<MediaUploadResponse>;

interface Answer {
  status: number;
  statusText: string;
  body: string;
}

/**
 * `POST /api/media` (contracts' `uploadMedia`, one image in the `image` field): one multipart
 * request with XMLHttpRequest, the browser API that reports an upload's progress
 * (fetch reports none, and a streamed request body needs HTTP/2). Same rules as `apiRequest`:
 * the session cookie, the CSRF header, JSON answers.
 */
function send(file: File, { onProgress, signal }: UploadImageOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    request.open(callRoutes.uploadMedia.method, resolveApiUrl(callRoutes.uploadMedia.path));
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () =>
      resolve({
        status: request.status,
        statusText: request.statusText,
        body: request.responseText,
      });
    request.onerror = () => reject(new Error('Network error: the upload did not reach the server'));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    const form = new FormData();
    form.append(MEDIA_FIELD, file, file.name);
    request.send(form);
  });
}

/**
 * `POST /api/media` with progress. A 401 first renews the session's short-lived access cookie
 * and sends the file once more (as `apiRequest` does); any non-2xx answer rejects with an
 * ApiError ("STATUS: body", `serverMessage` the API's own text: 413, 415, 429, ...).
 */
export const uploadImage: UploadImage = async (file, options = {}) => {
  let answer = await send(file, options);
  if (answer.status === 401) {
    const renewal = await renewSession();
    if (renewal.renewed) {
      options.onProgress?.(0);
      answer = await send(file, options);
    }
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new ApiError(answer.status, answer.statusText, answer.body);
  }
  return JSON.parse(answer.body) as MediaUploadResponse;
};

/** What a failed upload says under its preview: the API's reason, else a plain one. */
export function uploadFailureText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? `Upload failed (${error.status})`;
  if (error instanceof Error && error.message.startsWith('Network error')) return error.message;
  return 'Upload failed';
}
