import { pathId, readJson, readQuery } from './body';
import { json, withRequest } from './http';
import { AppError } from '../errors';
import { clientAddress } from '../http/client-address';
import { getAvailability, quote } from '../booking-site/availability';
import { confirmBookingRequest, createBookingRequest, getBookingRequestStatus } from '../booking-site/booking-requests';
import { findBookingSite } from '../booking-site/public-facility';
import { photoResponse, readPublicPhoto } from '../room-types/photos';
import { bookingRequestLimit, confirmLimit, publicReadLimit } from '../booking-site/rate-limits';
import { hitRateLimits } from '../ratelimit/rate-limit';
import {
  choiceOf,
  ZAvailabilityQuerySchema,
  ZBookingRequestBodySchema,
  ZConfirmBodySchema,
  ZQuoteBodySchema,
} from '../booking-site/schemas';

type Params = Record<string, string>;

/** The public booking API (API.md, Public booking): no credentials, rate limited per address and per email. */
export const PUBLIC_BOOKING_ROUTES = [
  {
    method: 'GET' as const,
    path: '/api/public/facilities/{slug}',
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      await hitRateLimits(publicReadLimit(clientAddress(request)));
      const site = await findBookingSite(slug!);
      if (!site) throw new AppError('not_found', 'No booking site at this address.');
      return json({ data: site.facility }, { requestId });
    }),
  },
  {
    method: 'GET' as const,
    path: '/api/public/facilities/{slug}/availability',
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      const { from, to } = readQuery(request, ZAvailabilityQuerySchema);
      const data = await getAvailability({ slug: slug!, from, to, limit: publicReadLimit(clientAddress(request)) });
      return json({ data }, { requestId });
    }),
  },
  {
    method: 'GET' as const,
    path: '/api/public/facilities/{slug}/photos/{id}',
    /** A room type's photo on the published site; immutable, so a browser asks once. */
    handler: withRequest<Params>(async ({ request }, { slug, id }) => {
      const photoId = pathId(id!);
      await hitRateLimits(publicReadLimit(clientAddress(request)));
      const photo = await readPublicPhoto({ slug: slug!, photoId });
      if (!photo) throw new AppError('not_found', 'No such photo.');
      return photoResponse(photo, 'public');
    }),
  },
  {
    method: 'POST' as const,
    path: '/api/public/facilities/{slug}/quotes',
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      const body = await readJson(request, ZQuoteBodySchema);
      const data = await quote({
        slug: slug!,
        roomTypeId: body.roomTypeId,
        choice: choiceOf(body),
        limit: publicReadLimit(clientAddress(request)),
      });
      return json({ data }, { requestId });
    }),
  },
  {
    method: 'POST' as const,
    path: '/api/public/facilities/{slug}/booking-requests',
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      const body = await readJson(request, ZBookingRequestBodySchema);
      const data = await createBookingRequest({
        slug: slug!,
        roomTypeId: body.roomTypeId,
        choice: choiceOf(body),
        guest: body.guest,
        locale: body.locale ?? 'en',
        limit: bookingRequestLimit(clientAddress(request), body.guest.email),
      });
      return json({ data }, { status: 202, requestId });
    }),
  },
  {
    method: 'POST' as const,
    path: '/api/public/booking-requests/{id}/confirm',
    handler: withRequest<Params>(async ({ request, requestId }, { id }) => {
      const requestIdParam = pathId(id!);
      const { code } = await readJson(request, ZConfirmBodySchema);
      const address = clientAddress(request);
      const data = await confirmBookingRequest({
        requestId: requestIdParam,
        code,
        address,
        limit: confirmLimit(address),
      });
      return json({ data }, { status: 201, requestId });
    }),
  },
  {
    method: 'GET' as const,
    path: '/api/public/booking-requests/{id}',
    handler: withRequest<Params>(async ({ request, requestId }, { id }) => {
      const data = await getBookingRequestStatus({
        requestId: pathId(id!),
        limit: publicReadLimit(clientAddress(request)),
      });
      return json({ data }, { requestId });
    }),
  },
];
