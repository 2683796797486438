import { errorHandler, messageShape } from '@cairn/kit';
import type { FastifyInstance } from 'fastify';
import { photoFile } from '../media/photo-file.ts';
import { PHOTO_PATH } from '../media/photos.ts';

/**
 * The photos' images: public, like the real API's photo CDN (no version header, no credential), immutable
 * (a URL always names the same picture), with an ETag. `/places-photos/<size>/<file>`: a size that is not one
 * of the forms, or larger than the photo, is a 400; a file this server never gave, a 404.
 */
export async function photoFilesRoutes(app: FastifyInstance) {
  app.setErrorHandler(errorHandler(messageShape));
  app.get<{ Params: { size: string; file: string } }>(
    `${PHOTO_PATH}:size/:file`,
    { schema: { hide: true } },
    async (request, reply) => {
      const photo = photoFile(request.params.size, request.params.file);
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', photo.etag)
        .header('access-control-allow-origin', '*');
      if (request.headers['if-none-match'] === photo.etag) return reply.status(304).send();
      return reply.type('image/png').send(photo.render());
    },
  );
}
