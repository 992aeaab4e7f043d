import { PageLoading } from '@/components/page-loading';

export default PageLoading;
