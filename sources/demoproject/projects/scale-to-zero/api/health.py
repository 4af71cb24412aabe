from django.http import JsonResponse


def health(request):
    # Answers once the process serves: it cannot see the boot before it.
    return JsonResponse({"status": "ok"})
