/**
 * A worker thread of the image pool (image-pool.ts): processes one image at a time. libvips
 * (sharp) is told to use one thread per image and to keep no cache: the pool's size, not the
 * images, decides how much CPU processing takes from the API's requests.
 */
import sharp from 'sharp';
import { processImage, type ProcessImageResult, type ProcessImageTask } from './process-image';

sharp.concurrency(1);
sharp.cache(false);

export default function run(task: ProcessImageTask): Promise<ProcessImageResult> {
  return processImage(task);
}
