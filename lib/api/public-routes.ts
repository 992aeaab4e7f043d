import { pathId, readJson, readQuery } from './body';
import { json, withRequest } from './http';
import { AppError } from '../errors';
import { clientAddress } from '../http/client-address';
import { getAvailability, quote, requireBookingSite } from '../booking-site/availability';
import {
  confirmBookingRequest,
  createBookingRequest,
  getBookingRequestStatus,
  requireBookingRequest,
} from '../booking-site/booking-requests';
import { findBookingSite } from '../booking-site/public-facility';
import { photoResponse, readPublicPhoto } from '../room-types/photos';
import {
  bookingRequestEmailLimit,
  bookingRequestLimit,
  confirmLimit,
  publicReadLimit,
} from '../booking-site/rate-limits';
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
    /** The slug is found (and the address counted) before the body is read: an unknown one is a 404 unread. */
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      const site = await requireBookingSite(slug!, publicReadLimit(clientAddress(request)));
      const body = await readJson(request, ZQuoteBodySchema);
      const data = await quote({ site, roomTypeId: body.roomTypeId, choice: choiceOf(body) });
      return json({ data }, { requestId });
    }),
  },
  {
    method: 'POST' as const,
    path: '/api/public/facilities/{slug}/booking-requests',
    /** The slug found and the address counted first, the email once the body names it. */
    handler: withRequest<Params>(async ({ request, requestId }, { slug }) => {
      const site = await requireBookingSite(slug!, bookingRequestLimit(clientAddress(request)));
      const body = await readJson(request, ZBookingRequestBodySchema);
      const data = await createBookingRequest({
        site,
        roomTypeId: body.roomTypeId,
        choice: choiceOf(body),
        guest: body.guest,
        locale: body.locale ?? 'en',
        limit: bookingRequestEmailLimit(body.guest.email),
      });
      return json({ data }, { status: 202, requestId });
    }),
  },
  {
    method: 'POST' as const,
    path: '/api/public/booking-requests/{id}/confirm',
    /** The request found (and the address counted) before its body, the code, is read. */
    handler: withRequest<Params>(async ({ request, requestId }, { id }) => {
      const address = clientAddress(request);
      const found = await requireBookingRequest(pathId(id!), confirmLimit(address));
      const { code } = await readJson(request, ZConfirmBodySchema);
      const data = await confirmBookingRequest({ request: found, code, address });
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
